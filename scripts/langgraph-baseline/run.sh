#!/usr/bin/env bash
# `make bench-langgraph`: the chat-turn comparison, both sides in one run:
# the LangGraph ReAct baseline (baseline.py says what it measures and why
# it is fair) and this site's agent bench, alternately, and the ratio.
# Idempotent: the venv (.cache/langgraph-venv) is installed only when
# requirements.txt changed since the last install, and the demo database
# (data/langgraph-demo.db) is written only when missing, by the release
# server itself (it seeds an empty database at start). A warm run starts
# in seconds. PYTHON picks the interpreter (default python3, 3.10 or later).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
venv=.cache/langgraph-venv
db=data/langgraph-demo.db

# 1. The venv, pinned exactly; the copy of requirements.txt marks it done.
started=$SECONDS
if ! cmp -s "$here/requirements.txt" "$venv/.requirements.txt"; then
    rm -rf "$venv"
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    cp "$here/requirements.txt" "$venv/.requirements.txt"
    echo "venv: installed in $((SECONDS - started)) s"
fi

# 2. The demo database, as the site seeds it: the release server started on
# an empty file and a free port, stopped once /healthz answers. Written
# under another name and renamed, so an interrupted run leaves nothing half
# seeded.
if [ ! -f "$db" ]; then
    server=target/release/server
    [ -x "$server" ] || { echo "missing $server: run \`make build\` first" >&2; exit 1; }
    mkdir -p data
    partial="$db.partial"
    rm -f "$partial" "$partial-wal" "$partial-shm" "$partial.setup-lock"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    DATABASE_URL="sqlite://$partial" DEMO_DATA=on LEPTOS_SITE_ADDR="127.0.0.1:$port" RUST_LOG=warn \
        "$server" >"$partial.log" 2>&1 &
    pid=$!
    trap 'kill $pid 2>/dev/null || true' EXIT
    for _ in $(seq 1 1200); do
        curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
        kill -0 $pid 2>/dev/null || { cat "$partial.log" >&2; exit 1; }
        sleep 0.1
    done
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "server did not start" >&2; exit 1; }
    kill $pid && wait $pid || true
    trap - EXIT
    # Fold the WAL into the file (closing the last connection removes it).
    python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()' "$partial"
    mv "$partial" "$db"
    rm -f "$partial-wal" "$partial-shm" "$partial.setup-lock" "$partial.log"
    echo "demo database: written in $((SECONDS - started)) s"
fi

# 3. Both sides, twice, alternately (a build or an eval beside the run
# moves both the same way within a round): the LangGraph agent in
# process, then this site's agent (`cargo bench -p server --bench agent`:
# the same 8 messages inside the server and over loopback HTTP), then the
# ratios of the p50s, round by round.
ours() {
    cargo bench -q -p server --bench agent 2>/dev/null | grep -E "turn \(server\)|round trip"
}
mkdir -p .cache
for round in 1 2; do
    echo "== round $round"
    "$venv/bin/python" "$here/baseline.py" "$db" | tee .cache/langgraph-round-$round.txt
    ours | tee -a .cache/langgraph-round-$round.txt
done
python3 - .cache/langgraph-round-1.txt .cache/langgraph-round-2.txt <<'PY'
import re, sys
UNIT = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}
def p50(text, label):
    m = re.search(re.escape(label) + r".*?p50=\s*([0-9.]+)(s|ms|µs|ns)", text)
    return float(m.group(1)) * UNIT[m.group(2)]
for i, path in enumerate(sys.argv[1:], 1):
    text = open(path, encoding="utf-8").read()
    theirs = p50(text, "langgraph react turn (in process)")
    inside = p50(text, "embedded planner turn (server)")
    http = p50(text, "POST /api/v1/chat round trip")
    print(f"round {i}: LangGraph {theirs * 1e3:.2f} ms in process; ours {inside * 1e3:.2f} ms "
          f"inside the server, {http * 1e3:.2f} ms over HTTP: "
          f"{theirs / http:.1f}x over HTTP, {theirs / inside:.1f}x inside the server")
PY
