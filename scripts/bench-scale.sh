#!/usr/bin/env bash
# `make bench-scale`: the main reads and a review written at each size
# (BENCH_SIZES advisors, ten reviews each; default 10000,100000), on SQLite
# (data/scale-<size>.db) and on PostgreSQL (database scale_<size>), side
# by side. 1,000,000 advisors need about 7 GB for SQLite and 15 GB free
# for PostgreSQL: BENCH_SIZES=10000,100000,1000000, and with too little
# disk for both, one at a time (`--pg-only` after deleting the SQLite file).
# PostgreSQL runs as a throwaway cluster kept in data/pg-scale (so the
# data are written once), started here on a free port and stopped when
# the measurement ends. initdb and pg_ctl refuse root: as
# root they run as the `postgres` user.
set -euo pipefail
cd "$(dirname "$0")/.."

.ci/setup postgres
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
dir="$PWD/data/pg-scale"
run_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
if [ ! -f "$dir/data/PG_VERSION" ]; then
    run_pg "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C >/dev/null
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
run_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c shared_buffers=256MB -c max_wal_size=4GB" start >/dev/null
trap 'run_pg "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null' EXIT
"$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qtc "SELECT 1 FROM pg_database WHERE datname = 'scale'" | grep -q 1 \
    || "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres scale

cargo run --release -p server -- bench-scale --pg "postgres://postgres@127.0.0.1:$port/scale" \
    ${BENCH_SIZES:+--sizes "$BENCH_SIZES"} "$@"
