import { defineConfig, devices } from '@playwright/test';
import * as path from 'path';
import { chromiumLaunch } from './chromium';
import { mockServer, serverBinary, siteServer } from './site-server';

// The tests run against the server binary of `./site-server` (the release
// one, or the debug one under `make test`), on its own port and a fresh database, in Debian's Chromium (no browser
// download: the machine has no internet).
const PORT = Number(process.env.E2E_PORT ?? 3100);
// A second site whose agent is a language model: the scripted
// OpenAI-compatible server (`server mock-llm`) answering from a fixture.
export const MODEL_PORT = PORT + 1;
const LLM_PORT = PORT + 99;
// A third site whose panel records for the site's own recognizer: the
// scripted OpenAI-compatible transcription server (`server mock-asr`),
// whose script each test sets (tests/voice-input.spec.ts).
export const ASR_SITE_PORT = PORT + 2;
export const ASR_PORT = PORT + 98;
const tmpAsr = path.resolve(__dirname, '.tmp-asr');
const root = path.resolve(__dirname, '..');
const tmp = path.resolve(__dirname, '.tmp');
const tmpModel = path.resolve(__dirname, '.tmp-model');
const server = serverBinary;

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
    siteServer({
      server,
      port: PORT,
      tmp,
      // tests/review-site.spec.ts imports into it.
      db: 'e2e.db',
      siteRoot: `${root}/target/site`,
      env: {
        ADMIN_TOKEN: 'e2e-admin',
        // API calls of the tests name their client with X-Forwarded-For.
        TRUSTED_PROXIES: '127.0.0.1',
      },
    }),
    mockServer(`exec "${server}" mock-llm "${__dirname}/fixtures/model-script.json" --addr 127.0.0.1:${LLM_PORT}`, LLM_PORT),
    siteServer({
      server,
      port: MODEL_PORT,
      tmp: tmpModel,
      db: 'e2e.db',
      siteRoot: `${root}/target/site`,
      env: {
        LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
        LLM_MODEL: 'scripted',
        LLM_TIMEOUT_SECS: '2',
      },
    }),
    mockServer(`exec "${server}" mock-asr --addr 127.0.0.1:${ASR_PORT}`, ASR_PORT),
    siteServer({
      server,
      port: ASR_SITE_PORT,
      tmp: tmpAsr,
      db: 'e2e.db',
      siteRoot: `${root}/target/site`,
      env: {
        ASR_BASE_URL: `http://127.0.0.1:${ASR_PORT}/v1`,
        ASR_TIMEOUT_SECS: '2',
        TRANSCRIPTIONS_PER_MINUTE: '1000',
      },
    }),
  ],
});
