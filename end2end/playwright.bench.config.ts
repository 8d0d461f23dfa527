import { defineConfig } from '@playwright/test';
import * as path from 'path';
import { chromiumLaunch } from './chromium';
import { siteServer } from './site-server';

// `make bench-front` (not part of `make test`): how long a student waits, from
// navigation to the agent's first answer, on home, ranking and detail, on a
// throttled phone profile and on loopback (bench/front.bench.ts).
//
// Like the e2e config: the release server that `make build` produced, on its
// own port and a fresh database, in Debian's Chromium. BENCH_SERVER and
// BENCH_SITE_ROOT point it at another build.
const PORT = Number(process.env.BENCH_PORT ?? 3200);
const root = path.resolve(__dirname, '..');
const tmp = path.resolve(__dirname, '.tmp-bench');
const server = process.env.BENCH_SERVER ?? `${root}/target/release/server`;
const siteRoot = process.env.BENCH_SITE_ROOT ?? `${root}/target/site`;

export default defineConfig({
  testDir: './bench',
  testMatch: /.*\.bench\.ts$/,
  // N runs × 3 pages × 2 profiles × (cold + warm); the test sets its own.
  timeout: 0,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    launchOptions: chromiumLaunch,
  },
  webServer: siteServer({ server, port: PORT, tmp, db: 'bench.db', siteRoot }),
});
