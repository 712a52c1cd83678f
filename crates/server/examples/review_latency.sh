#!/bin/bash
# A bot's move latency with N reviews asked for (docs/performance.md, issue 26):
#   bash crates/server/examples/review_latency.sh target/debug/carcassonne 18302 40 [serve flags…]
# starts BINARY on PORT with a fresh SQLite file, then runs review_latency.py.
BIN=$1; PORT=$2; N=$3; shift 3
DB=$(mktemp -u /tmp/lat-XXXX.db)
CARCASSONNE_RATE_LIMIT=off CARCASSONNE_BOT_DELAY_MS=0 $BIN serve --addr 127.0.0.1:$PORT --db $DB --max-games-per-hour-per-ip 10000 --max-active-games-per-ip 10000 "$@" >/tmp/lat-$PORT.log 2>&1 &
PID=$!
sleep 2
python3 "$(dirname "$0")/review_latency.py" http://127.0.0.1:$PORT $N
kill $PID; wait $PID 2>/dev/null
rm -f $DB $DB-wal $DB-shm
