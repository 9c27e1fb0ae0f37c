#!/usr/bin/env bash
# The walkthrough of docs/api.md as one script: register, play a hole against two COMs
# by following the server's hints, then read the log and the audit record.
# Run it against `make run`:  scripts/walkthrough.sh [http://127.0.0.1:8000]
set -euo pipefail
API="${1:-http://127.0.0.1:8000}/api"
USERNAME="walker-$(date +%s)"
TOKEN=$(curl -s -X POST $API/accounts/register -H 'Content-Type: application/json' \
  -d "{\"username\": \"$USERNAME\", \"password\": \"correct-horse-battery\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
AUTH="Authorization: Token $TOKEN"
MATCH=$(curl -s -X POST $API/matches -H "$AUTH" -H 'Content-Type: application/json' \
  -d '{"preset": "six-card", "holes": 1, "seats": [{"type": "me"}, {"type": "com", "level": "normal"}, {"type": "com", "level": "hard"}]}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
echo "match $MATCH"
curl -s -X POST $API/matches/$MATCH/actions -H "$AUTH" -H 'Content-Type: application/json' -d '{"type": "reveal", "position": 0}' > /dev/null
curl -s -X POST $API/matches/$MATCH/actions -H "$AUTH" -H 'Content-Type: application/json' -d '{"type": "reveal", "position": 4}' | python3 -m json.tool | head -20
# play: wait for our turn (long-poll), then draw and keep the card if it is low
while :; do
  DETAIL=$(curl -s "$API/matches/$MATCH" -H "$AUTH")
  STATUS=$(echo "$DETAIL" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
  [ "$STATUS" = finished ] && break
  MINE=$(echo "$DETAIL" | python3 -c 'import json,sys; print(json.load(sys.stdin)["your_turn"])')
  VERSION=$(echo "$DETAIL" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
  if [ "$MINE" != True ]; then
    curl -s "$API/matches/$MATCH/events?after=$VERSION&wait=10" -H "$AUTH" > /dev/null
    continue
  fi
  HINT=$(curl -s "$API/matches/$MATCH/hint" -H "$AUTH")
  ACTION=$(echo "$HINT" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["action"]))')
  echo "v$VERSION hint: $(echo "$HINT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["reason"])')"
  curl -s -X POST $API/matches/$MATCH/actions -H "$AUTH" -H 'Content-Type: application/json' \
    -H "If-Match: \"$VERSION\"" -H "Idempotency-Key: $MATCH-$VERSION" -d "$ACTION" > /dev/null
done
curl -s "$API/matches/$MATCH" -H "$AUTH" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("totals", d["totals"], "winners", d["winners"], "seed", d["seed"][:16]+"...")'
curl -s "$API/matches/$MATCH/events?limit=3" -H "$AUTH" | python3 -m json.tool | head -40
curl -s "$API/matches/$MATCH/audit" -H "$AUTH" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("audit:", len(d["events"]), "events, chain faults:", d["chain_faults"])'
echo "verify it: python manage.py verify_match $MATCH"
