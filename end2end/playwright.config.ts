import { defineConfig, devices } from '@playwright/test';
import * as path from 'path';
import { chromiumLaunch } from './chromium';

// The tests run against the release server binary that `make build` produced,
// on its own port and a fresh database, in Debian's Chromium (no browser
// download: the machine has no internet).
const PORT = Number(process.env.E2E_PORT ?? 3100);
// A second site whose agent is a language model: the scripted
// OpenAI-compatible server (`server mock-llm`) answering from a fixture.
export const MODEL_PORT = PORT + 1;
const LLM_PORT = PORT + 99;
const root = path.resolve(__dirname, '..');
const tmp = path.resolve(__dirname, '.tmp');
const tmpModel = path.resolve(__dirname, '.tmp-model');
const server = `${root}/target/release/server`;

export default defineConfig({
  testDir: './tests',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunch,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      command: `rm -rf "${tmp}" && mkdir -p "${tmp}" && exec "${server}"`,
      url: `http://127.0.0.1:${PORT}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        DATABASE_URL: `sqlite://${tmp}/e2e.db`,
        ADMIN_TOKEN: 'e2e-admin',
        // Every test is one browser on 127.0.0.1: one client for the limits.
        CHAT_TURNS_PER_MINUTE: '1000',
        // API calls of the tests name their client with X-Forwarded-For.
        TRUSTED_PROXIES: '127.0.0.1',
        LEPTOS_SITE_ADDR: `127.0.0.1:${PORT}`,
        LEPTOS_SITE_ROOT: `${root}/target/site`,
        RUST_LOG: 'warn',
      },
    },
    {
      command: `exec "${server}" mock-llm "${__dirname}/fixtures/model-script.json" --addr 127.0.0.1:${LLM_PORT}`,
      port: LLM_PORT,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: { RUST_LOG: 'warn' },
    },
    {
      command: `rm -rf "${tmpModel}" && mkdir -p "${tmpModel}" && exec "${server}"`,
      url: `http://127.0.0.1:${MODEL_PORT}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        DATABASE_URL: `sqlite://${tmpModel}/e2e.db`,
        LEPTOS_SITE_ADDR: `127.0.0.1:${MODEL_PORT}`,
        LEPTOS_SITE_ROOT: `${root}/target/site`,
        LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
        LLM_MODEL: 'scripted',
        LLM_TIMEOUT_SECS: '2',
        CHAT_TURNS_PER_MINUTE: '1000',
        RUST_LOG: 'warn',
      },
    },
  ],
});
