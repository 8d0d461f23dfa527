import * as path from 'path';

// The server binary the tests start: the release one `make build` produced,
// or E2E_SERVER (`make test` sets it to the debug build its Rust tests made,
// beside the release bundle's hash file: the Makefile's `build-e2e`).
export const serverBinary =
  process.env.E2E_SERVER ?? path.resolve(__dirname, '..', 'target/release/server');

// The server binary above, as every Playwright config
// here starts it: a fresh SQLite database `db` in `tmp`, its own port, ready when
// /healthz answers, one client for the limits (every visit is one browser on
// 127.0.0.1). `env` adds to (or overrides) those settings.
export function siteServer(opts: {
  server: string;
  port: number;
  tmp: string;
  db: string;
  siteRoot: string;
  env?: Record<string, string>;
}) {
  return {
    command: `rm -rf "${opts.tmp}" && mkdir -p "${opts.tmp}" && exec "${opts.server}"`,
    url: `http://127.0.0.1:${opts.port}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    env: {
      DATABASE_URL: `sqlite://${opts.tmp}/${opts.db}`,
      CHAT_TURNS_PER_MINUTE: '1000',
      LEPTOS_SITE_ADDR: `127.0.0.1:${opts.port}`,
      LEPTOS_SITE_ROOT: opts.siteRoot,
      // cargo-leptos compiles it into the release binary; a debug build
      // made by `cargo build` reads it here.
      LEPTOS_OUTPUT_NAME: 'advisor-review',
      RUST_LOG: 'warn',
      ...opts.env,
    },
  };
}

// One of the scripted stand-ins (`server mock-llm`, `server mock-asr`) on
// `port`, ready when it accepts connections.
export function mockServer(command: string, port: number) {
  return {
    command,
    port,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    env: { RUST_LOG: 'warn' },
  };
}
