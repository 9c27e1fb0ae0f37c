#!/usr/bin/env bash
# The walkthrough of docs/api.md as one script: register, play a hole of Golf against two
# COMs by following the server's hints, read the log and the audit record, then play a
# deal of Hearts against three COMs and a deal of Ninety-Nine against two, the same way.
# Run it against `make run`:  scripts/walkthrough.sh [http://127.0.0.1:8000]
# It stops at the first failed request, printing the problem the server answered.
set -euo pipefail
case "${1:-}" in
  -h | --help) sed -n '2,6s/^# \{0,1\}//p' "$0"; exit 0 ;;
  -*) echo "walkthrough.sh: unknown option $1 (it takes the service's address, nothing else)" >&2; exit 2 ;;
esac
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
# play MATCH: wait for our turn (long-poll), then do what the hint says, to the end
play() {
  local match=$1 detail status mine version hint answer
  while :; do
    detail=$(call GET "/matches/$match")
    read -r status mine version < <(echo "$detail" | field '"%s %s %s" % (d["status"], d["your_turn"], d["version"])')
    [ "$status" = finished ] && break
    if [ "$mine" != True ]; then
      call GET "/matches/$match/events?after=$version&wait=10" > /dev/null
      continue
    fi
    hint=$(call GET "/matches/$match/hint")
    echo "v$version hint: $(echo "$hint" | field 'd["reason"]')"
    # If-Match: a COM moving meanwhile (bidding and passing are simultaneous) makes it a 412:
    # nothing was done, so read the match again and go on
    if ! answer=$(call POST "/matches/$match/actions" \
      "$(echo "$hint" | field 'json.dumps(d["action"])')" \
      "If-Match: \"$version\"" "Idempotency-Key: $match-$version" 2>&1); then
      case "$answer" in
        *"error: 412"*) echo "v$version: the match moved on meanwhile (412), reading it again" ;;
        *) echo "$answer" >&2; return 1 ;;
      esac
    fi
  done
}
play "$MATCH"
call GET "/matches/$MATCH" \
  | field '"totals %s winners %s seed %s..." % (d["totals"], d["winners"], d["seed"][:16])'
call GET "/matches/$MATCH/events?limit=3" \
  | field '"first events: " + ", ".join(e["type"] for e in d["events"])'
call GET "/matches/$MATCH/audit" \
  | field '"audit: %d events, chain faults: %s" % (len(d["events"]), d["chain_faults"])'
echo "verify it: scripts/manage verify_match $MATCH"

# Hearts, the same way: the game is named on creation; one deal, passing to the left first
HEARTS=$(call POST /matches '{"game": "hearts", "preset": "hearts-classic",
  "rules": {"max_deals": 1}, "seats": [{"type": "me"}, {"type": "com", "level": "easy"},
  {"type": "com", "level": "normal"}, {"type": "com", "level": "hard"}]}' | field 'd["id"]')
call GET "/matches/$HEARTS" \
  | field '"hearts match %s: my hand %s" % (d["id"], " ".join(d["view"]["hand"]))'
play "$HEARTS"
call GET "/matches/$HEARTS" \
  | field '"points taken %s, totals %s, winners %s" % (d["view"]["last_deal"]["taken"], d["totals"], d["winners"])'
echo "verify it: scripts/manage verify_match $HEARTS"

# Ninety-Nine: three players, one deal; the bid is three cards whose suits make the contract
NINETY=$(call POST /matches '{"game": "ninety-nine", "rules": {"max_deals": 1},
  "seats": [{"type": "me"}, {"type": "com", "level": "normal"}, {"type": "com", "level": "hard"}]}' \
  | field 'd["id"]')
call GET "/matches/$NINETY" \
  | field '"ninety-nine match %s: my hand %s" % (d["id"], " ".join(d["view"]["hands"][0]))'
play "$NINETY"
call GET "/matches/$NINETY" \
  | field '"contracts %s, tricks %s, totals %s, winners %s" % (d["view"]["last_deal"]["contracts"], d["view"]["last_deal"]["tricks"], d["totals"], d["winners"])'
echo "verify it: scripts/manage verify_match $NINETY"
