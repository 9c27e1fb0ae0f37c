#!/usr/bin/env bash
# The walkthrough of docs/api.md as one script: register, play a hole against two COMs
# by following the server's hints, then read the log and the audit record.
# Run it against `make run`:  scripts/walkthrough.sh [http://127.0.0.1:8000]
# It stops at the first failed request, printing the problem the server answered.
set -euo pipefail
API="${1:-http://127.0.0.1:8000}/api"
USERNAME="walker-$(date +%s)-$$"

# call METHOD PATH [BODY] [HEADER...]: the response body; fails on an HTTP error
call() {
  local method=$1 path=$2 body=${3:-}
  local args=(-sS --fail-with-body --max-time 40 -X "$method" "$API$path")
  [ -n "${TOKEN:-}" ] && args+=(-H "Authorization: Token $TOKEN")
  [ -n "$body" ] && args+=(-H 'Content-Type: application/json' -d "$body")
  shift $(($# < 3 ? $# : 3))
  for header in "$@"; do args+=(-H "$header"); done
  curl "${args[@]}"
}
# field EXPR: evaluate a Python expression over the JSON document `d` read from stdin
field() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }

TOKEN=$(call POST /accounts/register \
  "{\"username\": \"$USERNAME\", \"password\": \"correct-horse-battery\"}" | field 'd["token"]')
MATCH=$(call POST /matches '{"preset": "six-card", "holes": 1, "seats": [{"type": "me"},
  {"type": "com", "level": "normal"}, {"type": "com", "level": "hard"}]}' | field 'd["id"]')
echo "match $MATCH"
call POST "/matches/$MATCH/actions" '{"type": "reveal", "position": 0}' > /dev/null
call POST "/matches/$MATCH/actions" '{"type": "reveal", "position": 4}' \
  | field '"v%s: %s, my grid %s" % (d["version"], [e["type"] for e in d["events"]],
           d["view"]["grids"][d["view"]["seat"]])'
# play: wait for our turn (long-poll), then do what the hint says
while :; do
  DETAIL=$(call GET "/matches/$MATCH")
  read -r STATUS MINE VERSION < <(echo "$DETAIL" | field '"%s %s %s" % (d["status"], d["your_turn"], d["version"])')
  [ "$STATUS" = finished ] && break
  if [ "$MINE" != True ]; then
    call GET "/matches/$MATCH/events?after=$VERSION&wait=10" > /dev/null
    continue
  fi
  HINT=$(call GET "/matches/$MATCH/hint")
  echo "v$VERSION hint: $(echo "$HINT" | field 'd["reason"]')"
  call POST "/matches/$MATCH/actions" "$(echo "$HINT" | field 'json.dumps(d["action"])')" \
    "If-Match: \"$VERSION\"" "Idempotency-Key: $MATCH-$VERSION" > /dev/null
done
call GET "/matches/$MATCH" \
  | field '"totals %s winners %s seed %s..." % (d["totals"], d["winners"], d["seed"][:16])'
call GET "/matches/$MATCH/events?limit=3" \
  | field '"first events: " + ", ".join(e["type"] for e in d["events"])'
call GET "/matches/$MATCH/audit" \
  | field '"audit: %d events, chain faults: %s" % (len(d["events"]), d["chain_faults"])'
echo "verify it: scripts/manage verify_match $MATCH"
