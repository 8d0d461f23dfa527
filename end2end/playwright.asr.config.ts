import { defineConfig, devices } from '@playwright/test';
import * as path from 'path';
import { withFakeMicrophone } from './chromium';
import { serverBinary, siteServer } from './site-server';

// `make eval-asr` only (never `make test`): the site of the last `make build`
// with the local recognizer (`.ci/asr serve`, Whisper base) behind
// POST /api/v1/transcribe, and Chromium's fake microphone playing Mandarin
// synthesised by espeak-ng, unless a spec plays the neural voice's
// recordings that `make eval-asr` makes.
const PORT = Number(process.env.E2E_ASR_PORT ?? 3300);
export const RECOGNIZER_PORT = PORT + 1;
const root = path.resolve(__dirname, '..');
const fixture = path.resolve(__dirname, 'fixtures/asr/zh-pku-cs.wav');

export default defineConfig({
  testDir: './asr',
  timeout: 60_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    permissions: ['microphone'],
    launchOptions: withFakeMicrophone(fixture),
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      command: `cd "${root}" && exec .ci/asr serve --port ${RECOGNIZER_PORT}`,
      url: `http://127.0.0.1:${RECOGNIZER_PORT}/health`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    siteServer({
      server: serverBinary,
      port: PORT,
      tmp: path.resolve(__dirname, '.tmp-asr-local'),
      db: 'e2e.db',
      siteRoot: `${root}/target/site`,
      env: {
        ASR_BASE_URL: `http://127.0.0.1:${RECOGNIZER_PORT}/v1`,
        ASR_MODEL: 'whisper-base',
      },
    }),
  ],
});
