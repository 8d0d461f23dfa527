import { test, expect, chromium, Browser, BrowserContext } from '@playwright/test';
import * as path from 'path';
import { withFakeMicrophone } from '../chromium';
import { ASR_PORT, ASR_SITE_PORT } from '../playwright.config';
import { recordSpeech, hydrated, send } from './helpers';

// Voice input on the site's own recognizer, in real Chromium: a fake
// microphone that plays a Mandarin recording (espeak-ng: "我想考北京大学
// 计算机系", then silence), the panel's MediaRecorder, POST
// /api/v1/transcribe, and the scripted recognizer (`server mock-asr`) whose
// answer each test sets. The browser has no SpeechRecognition, as in
// WeChat's, QQ's or Firefox's: the microphone must still work.

const fixture = path.resolve(__dirname, '../fixtures/asr/zh-pku-cs.wav');
const site = `http://127.0.0.1:${ASR_SITE_PORT}`;
const recognizer = `http://127.0.0.1:${ASR_PORT}`;

type Received = { bytes: number; container: string; language: string; prompt: string };

async function script(rules: object[]) {
  const r = await fetch(`${recognizer}/script`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules }),
  });
  expect(r.status).toBe(204);
}

async function received(): Promise<Received[]> {
  return (await fetch(`${recognizer}/received`)).json();
}

let browser: Browser;
let context: BrowserContext;

test.beforeAll(async () => {
  browser = await chromium.launch(withFakeMicrophone(fixture));
});

test.afterAll(async () => browser.close());

test.beforeEach(async () => {
  context = await browser.newContext({ baseURL: site, locale: 'zh-CN', permissions: ['microphone'] });
  await context.addInitScript(() => {
    for (const name of ['SpeechRecognition', 'webkitSpeechRecognition']) {
      Object.defineProperty(window, name, { value: undefined, configurable: true });
    }
  });
});

test.afterEach(async () => context.close());

test('a spoken sentence is recorded, transcribed on the site and fills the form', async () => {
  await script([{ text: '我想考北京大学计算机系' }]);
  const page = await context.newPage();
  await recordSpeech(page);
  await page.goto('/');
  await hydrated(page, 'home');

  const mic = page.getByTestId('agent-mic');
  await expect(mic).toBeVisible();
  await mic.click();
  await expect(page.getByTestId('agent-rec')).toContainText('0:0');
  await expect(mic).toHaveAttribute('aria-pressed', 'true');
  // It stops by itself after the sentence (the recording's pause), sends
  // the audio, and the text is sent as a turn.
  await expect(page).toHaveURL(/\/ranking\?school=/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('北京大学 · 计算机科学与技术 导师排行');
  await expect(page.locator('[data-testid=agent-message][data-role=user]').first()).toHaveText('我想考北京大学计算机系');
  await expect(mic).toHaveAttribute('aria-pressed', 'false');

  // One recognition: the recording so far went ahead at the pause after
  // the sentence (endpoint::LISTEN_AHEAD_MS), nothing was said before the
  // end, so its text is the message and the whole recording is not sent.
  const got = await received();
  expect(got).toHaveLength(1);
  expect(['webm', 'ogg']).toContain(got[0].container);
  expect(got[0].bytes).toBeGreaterThan(2000);
  expect(got[0].language).toBe('zh');
  expect(got[0].prompt).toContain('北京大学');
});

test('the names on the page go with the recording, and a second tap stops it', async () => {
  await script([{ when_prompt: '张三老师', text: '第一个导师怎么样' }]);
  const page = await context.newPage();
  await recordSpeech(page);
  await page.goto('/');
  await hydrated(page, 'home');
  await send(page, '我想考北京大学计算机系');
  await expect(page).toHaveURL(/\/ranking\?school=/);
  await hydrated(page, 'ranking');

  const mic = page.getByTestId('agent-mic');
  await mic.click();
  await expect(page.getByTestId('agent-rec')).toBeVisible();
  await page.waitForTimeout(1500);
  await mic.click();
  await expect(page.locator('[data-testid=agent-message][data-role=user]').last()).toHaveText('第一个导师怎么样');
  const got = await received();
  expect(got).toHaveLength(1);
  expect(got[0].prompt).toContain('张三老师');
});

test('the recognizer failing or slow is said in Chinese, and typing still works', async () => {
  const page = await context.newPage();
  await recordSpeech(page);
  await page.goto('/');
  await hydrated(page, 'home');
  const mic = page.getByTestId('agent-mic');

  await script([{ status: 500 }]);
  await mic.click();
  await expect(page.getByTestId('agent-error')).toContainText('语音识别出错了', { timeout: 20_000 });

  // Slower than ASR_TIMEOUT_SECS (2 s).
  await script([{ delay_ms: 4000, text: '太晚了' }]);
  await mic.click();
  await expect(page.getByTestId('agent-error')).toContainText('语音识别太慢了', { timeout: 20_000 });
  await expect(page.locator('[data-testid=agent-message][data-role=user]')).toHaveCount(0);

  await send(page, '我想考北京大学计算机系');
  await expect(page).toHaveURL(/\/ranking\?school=/);
});

test('without a recognizer on either side there is no microphone', async () => {
  // The first site has no ASR_BASE_URL, and this browser no SpeechRecognition.
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${ASR_SITE_PORT - 2}/`);
  await hydrated(page, 'home');
  await expect(page.getByTestId('agent-input')).toBeEnabled();
  await expect(page.getByTestId('agent-mic')).toHaveCount(0);
});
