#!/usr/bin/env bash
# boardgame.io's workload on boardgame.io and on kingme, one run after the other on this machine
# (the comparison in docs/measurements/load.md). Needs Node.js and npm (Debian: nodejs, npm)
# and the release build of kingme-server and kingme-load:
#
#   cargo build --release -p kingme-server -p kingme-tests
#   tests/boardgameio/compare.sh [MATCHES] [SECS]
#
# boardgame.io 0.50.2 and its dependencies come from the npm registry at the versions in
# package-lock.json (npm ci, into tests/boardgameio/node_modules).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
matches="${1:-1000}"
secs="${2:-20}"
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

[ -d "$here/node_modules" ] || (cd "$here" && npm ci --no-audit --no-fund)

echo "== boardgame.io 0.50.2 (in-memory storage), $matches matches at once, load: $(cut -d' ' -f1-3 /proc/loadavg)"
NODE_ENV=production node "$here/server.js" 28000 28001 > "$work/bgio.log" 2>&1 &
pids+=($!)
bgio=$!
sleep 2
NODE_ENV=production node "$here/load.js" --server http://127.0.0.1:28000 --api http://127.0.0.1:28001 \
    --server-pid "$bgio" --matches "$matches" --secs "$secs"
kill "$bgio"

echo "== kingme (database file, WAL), $matches matches at once, load: $(cut -d' ' -f1-3 /proc/loadavg)"
RUST_LOG=warn "$root/target/release/kingme-server" --listen 127.0.0.1:27878 --db "$work/load.db" \
    --rate-per-second 1000 --max-games-per-player 4 --max-connections 30000 > "$work/kingme.log" 2>&1 &
pids+=($!)
kingme=$!
sleep 1
"$root/target/release/kingme-load" --addr 127.0.0.1:27878 --server-pid "$kingme" \
    --games "$matches" --think-ms 0 --fresh-connections --secs "$secs"
