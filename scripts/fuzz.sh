#!/usr/bin/env bash
# `make fuzz`: every parser of outside bytes under libFuzzer (fuzz/, the
# targets' bodies in fuzz/src/targets.rs), FUZZ_SECONDS (600) each,
# FUZZ_JOBS (1) at a time. Each run starts from the committed seeds
# (fuzz/seeds/<target>, real recordings and captures) and grows its own
# corpus in fuzz/corpus/<target> (kept between runs, never committed).
# A crash, a hang over 1 s, or more memory held than the route allows
# (fuzz/src/lib.rs) stops that target with the input in
# fuzz/artifacts/<target>/: copy it to fuzz/regressions/<target>/, where
# `make test` replays it for good, and fix the parser.
#   FUZZ_TARGETS="recording sse" FUZZ_SECONDS=60 make fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

SECONDS_EACH=${FUZZ_SECONDS:-600}
JOBS=${FUZZ_JOBS:-1}
TARGETS=${FUZZ_TARGETS:-recording multipart csv_import sse model_json chat_request posting_rules recognizer_answer}

say() { printf '\033[1;34m[fuzz]\033[0m %s\n' "$*"; }

# libFuzzer's instrumentation needs a nightly compiler; cargo-fuzz drives it.
if ! rustup toolchain list | grep -q '^nightly'; then
    say "installing the nightly toolchain"
    rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    say "installing cargo-fuzz"
    cargo install --locked cargo-fuzz
fi

# The largest input each target is fed (src/targets.rs, `max_len`): a
# recording's and the transcription route's limits, 256 KB for a chat
# body, 64 KB for the rest.
max_len() {
    case "$1" in
        recording) echo 1048577 ;;
        multipart) echo 1115136 ;;
        chat_request) echo 262144 ;;
        posting_rules) echo 16384 ;;
        *) echo 65536 ;;
    esac
}

# No sanitizer: the code is safe Rust, and memory is checked by the
# targets' counting allocator instead (twice the speed of AddressSanitizer).
say "building the targets (nightly, coverage instrumentation)"
cargo +nightly fuzz build -s none

# The upload route: inputs up to the body limit from the start
# (-len_control=0); left to grow on its own, libFuzzer kept them under
# 10 KB for half an hour, and the limit is what is to be tried.
run_one() {
    local t=$1 len_control=()
    [ "$t" = multipart ] && len_control=(-len_control=0)
    mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
    cargo +nightly fuzz run -s none "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -max_total_time="$SECONDS_EACH" -timeout=1 -rss_limit_mb=2048 \
        -max_len="$(max_len "$t")" "${len_control[@]}" -print_final_stats=1 \
        >"fuzz/artifacts/$t.log" 2>&1
}
export -f run_one max_len
export SECONDS_EACH

failed=0
# shellcheck disable=SC2086
printf '%s\n' $TARGETS | xargs -P "$JOBS" -I{} bash -c 'run_one {} && echo "{} ok" || echo "{} FAILED"' \
    | tee fuzz/artifacts/outcome.txt
grep -q FAILED fuzz/artifacts/outcome.txt && failed=1

say "target, executions, seconds, coverage (edges), features, corpus"
for t in $TARGETS; do
    log="fuzz/artifacts/$t.log"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
    printf '%-14s %12s %6s %6s %6s %6s\n' "$t" "${runs:-?}" "${secs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}"
done
if [ "$failed" = 1 ]; then
    say "a target failed: its log and input are in fuzz/artifacts/"
    exit 1
fi
