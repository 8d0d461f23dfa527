import { test, expect, chromium, Browser, Page } from '@playwright/test';
import * as os from 'os';
import * as path from 'path';
import { withFakeMicrophone } from '../chromium';
import { ASR_PORT, ASR_SITE_PORT } from '../playwright.config';
import { hydrated, noBrowserRecognizer } from './helpers';
import { callState, speakingEngine, watchCall, writeVoicedWav } from './call';

// A conversation by voice, hands free, as a student holding a phone has
// it: one tap starts the call; Chromium's fake microphone "says" one
// utterance after another (a voiced, speech-like signal made by
// tests/call.ts — the site's own endpointer hears each as speech and its
// end as the pause); the scripted recognizer (`server mock-asr`) answers
// each recording with the next sentence; the panel answers aloud, listens
// again, is interrupted while it speaks, and hangs up on the student's
// goodbye. No step waits for a time: each waits for what the page shows.

const site = `http://127.0.0.1:${ASR_SITE_PORT}`;
const plainSite = `http://127.0.0.1:${ASR_SITE_PORT - 2}`;
const recognizer = `http://127.0.0.1:${ASR_PORT}`;
const wav = path.join(os.tmpdir(), `voice-call-${process.pid}.wav`);

const SAID = [
  '我想考北京大学计算机系',
  '我想做机器学习，导师温和一点',
  '第一个导师怎么样',
  // Said over the agent's answer to the third.
  '我想看看他的详细信息',
  '好了，谢谢',
];

async function script(texts: string[]) {
  const r = await fetch(`${recognizer}/script`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules: texts.map((text) => ({ text, times: 1 })) }),
  });
  expect(r.status).toBe(204);
}

const userLines = (page: Page) => page.locator('[data-testid=agent-message][data-role=user]');
const status = (page: Page) => page.getByTestId('agent-call-status');

let browser: Browser;

test.beforeAll(async () => {
  // Six utterances of 1.4 s, 4.5 s apart: each turn is answered and spoken
  // (0.4 s an utterance here) well before the next one starts.
  writeVoicedWav(wav, { bursts: 6, gap: 4.5 });
  browser = await chromium.launch(withFakeMicrophone(wav));
});

test.afterAll(async () => browser.close());

test('a spoken conversation: five turns, an interruption, a goodbye, on a phone', async () => {
  test.setTimeout(120_000);
  await script(SAID);
  const context = await browser.newContext({
    baseURL: site,
    locale: 'zh-CN',
    permissions: ['microphone'],
    viewport: { width: 375, height: 740 },
    hasTouch: true,
    isMobile: true,
  });
  await noBrowserRecognizer(context);
  const page = await context.newPage();
  await speakingEngine(page, { ms: 400, holdAtTurn: 3 });
  await watchCall(page);
  await page.goto('/');
  await hydrated(page, 'home');

  const call = page.getByTestId('agent-call');
  await expect(call).toBeVisible();
  const box = await page.getByTestId('agent-call-bar').boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 375).toBeTruthy();
  await expect(status(page)).toHaveAttribute('role', 'status');
  await call.click();
  await expect(call).toHaveAttribute('aria-pressed', 'true');
  await expect(status(page)).toHaveText('正在听，请说话…');

  // 1. The school and major: the ranking opens.
  await expect(userLines(page).nth(0)).toHaveText(SAID[0], { timeout: 20_000 });
  await expect(page).toHaveURL(/\/ranking\?school=/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('北京大学 · 计算机科学与技术 导师排行');

  // 2. Preferences: the recommended advisors are marked, with reasons.
  await expect(userLines(page).nth(1)).toHaveText(SAID[1], { timeout: 20_000 });
  const zhang = page.locator('.advisor-row.recommended', { hasText: '张三' });
  await expect(zhang).toBeVisible({ timeout: 20_000 });
  await expect(zhang.locator('.recommend-reasons')).toContainText('主要研究机器学习');

  // 3. About the first advisor: answered aloud (and held: still speaking)...
  await expect(userLines(page).nth(2)).toHaveText(SAID[2], { timeout: 20_000 });
  await expect(status(page)).toHaveAttribute('data-phase', 'speaking', { timeout: 20_000 });
  await expect(status(page)).toHaveText('正在说…直接说话可以打断');

  // 4. ...until the student talks over it: the speech is cut at once, and
  // what they said is the next turn, which opens the advisor's page.
  await expect(userLines(page).nth(3)).toHaveText(SAID[3], { timeout: 20_000 });
  await expect(page).toHaveURL(/\/advisor\/\d+/, { timeout: 20_000 });
  await expect(page.locator('.advisor-detail h1')).toContainText('张三');
  let state = await callState(page);
  expect(state.cut).toHaveLength(1);
  expect(state.cut[0]).toMatch(/^张三教授主要研究机器学习/);
  // The interrupted reply is still in the conversation, in full.
  await expect(page.locator('[data-testid=agent-message][data-role=assistant]', { hasText: /^张三教授主要研究机器学习/ })).toHaveCount(1);

  // 5. The goodbye: answered, then the call ends and the microphone is released.
  await expect(userLines(page).nth(4)).toHaveText(SAID[4], { timeout: 20_000 });
  await expect(status(page)).toHaveAttribute('data-phase', 'ended', { timeout: 20_000 });
  await expect(status(page)).toHaveText('通话已结束，再见');
  await expect(call).toHaveAttribute('aria-pressed', 'false');
  state = await callState(page);
  expect(state.spoken[state.spoken.length - 1]).toMatch(/^好的，再见/);
  expect(state.micLive).toBe(false);
  expect(state.opened).toBe(1);
  expect(state.constraints).toContain('"echoCancellation":true');
  // Every state was shown, in a conversation's order.
  expect(state.phases.join(' ')).toMatch(/^idle listening thinking speaking listening .*speaking listening thinking .*ended$/);
  // The conversation shows every turn; the call's states are not in it.
  await expect(userLines(page)).toHaveCount(5);
  await expect(page.getByTestId('agent-messages')).not.toContainText('正在听');
  await context.close();
});

test('Escape ends a call, and a hidden tab releases the microphone', async () => {
  await script([]);
  const context = await browser.newContext({ baseURL: site, locale: 'zh-CN', permissions: ['microphone'] });
  const page = await context.newPage();
  await speakingEngine(page, { ms: 400 });
  await watchCall(page);
  await page.goto('/');
  await hydrated(page, 'home');
  const call = page.getByTestId('agent-call');

  await call.click();
  await expect(status(page)).toHaveAttribute('data-phase', 'listening');
  await expect.poll(async () => (await callState(page)).micLive).toBe(true);
  await page.keyboard.press('Escape');
  await expect(status(page)).toHaveText('通话已结束');
  await expect.poll(async () => (await callState(page)).micLive).toBe(false);
  // Escape ended the call, not the panel.
  await expect(page.getByTestId('agent-input')).toBeVisible();

  await call.click();
  await expect(status(page)).toHaveAttribute('data-phase', 'listening');
  await expect.poll(async () => (await callState(page)).micLive).toBe(true);
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(status(page)).toHaveText('页面切到了后台，通话已结束，麦克风已关闭');
  await expect.poll(async () => (await callState(page)).micLive).toBe(false);
  await context.close();
});

// The browser's own recognizer (no recognizer on the site): a stand-in
// SpeechRecognition says the scripted sentences in turn, then reports
// no-speech, as Chrome's does after a silence.
async function browserRecognizer(page: Page, said: string[]) {
  await page.addInitScript((lines: string[]) => {
    const w = window as unknown as Record<string, unknown>;
    let next = 0;
    w.__recognitions = 0;
    class Recognition {
      lang = '';
      interimResults = false;
      continuous = false;
      maxAlternatives = 1;
      onresult: ((e: unknown) => void) | null = null;
      onerror: ((e: unknown) => void) | null = null;
      onend: (() => void) | null = null;
      start() {
        w.__recognitions = (w.__recognitions as number) + 1;
        setTimeout(() => {
          const text = lines[next++];
          if (text === undefined) this.onerror?.({ error: 'no-speech' });
          else this.onresult?.({ results: [Object.assign([{ transcript: text }], { isFinal: true })] });
          this.onend?.();
        }, 300);
      }
      stop() {}
      abort() {}
    }
    Object.defineProperty(window, 'SpeechRecognition', { value: Recognition, configurable: true });
    Object.defineProperty(window, 'webkitSpeechRecognition', { value: undefined, configurable: true });
  }, said);
}

test('with the browser recognizer: turns, then a silence ends the call politely, said once', async () => {
  const context = await browser.newContext({ baseURL: plainSite, locale: 'zh-CN', permissions: ['microphone'] });
  const page = await context.newPage();
  await browserRecognizer(page, ['我想考北京大学计算机系', '第一个导师怎么样']);
  await speakingEngine(page, { ms: 300 });
  await watchCall(page);
  await page.goto('/');
  await hydrated(page, 'home');
  await page.getByTestId('agent-call').click();
  await expect(page).toHaveURL(/\/ranking\?school=/);
  await expect(userLines(page).nth(1)).toHaveText('第一个导师怎么样');
  await expect(status(page)).toHaveText('好一会儿没听到声音，通话已结束', { timeout: 20_000 });
  const state = await callState(page);
  const goodbyes = state.spoken.filter((s) => s.startsWith('好一会儿没听到你说话'));
  expect(goodbyes).toHaveLength(1);
  expect(state.spoken.indexOf(goodbyes[0])).toBe(state.spoken.length - 1);
  expect(state.micLive).toBe(false);
  await context.close();
});

test('a goodbye typed or said ends a call; where nobody can listen there is no call', async () => {
  const context = await browser.newContext({ baseURL: plainSite, locale: 'zh-CN', permissions: ['microphone'] });
  const page = await context.newPage();
  await browserRecognizer(page, ['好了，谢谢']);
  await speakingEngine(page, { ms: 300 });
  await watchCall(page);
  await page.goto('/');
  await hydrated(page, 'home');
  await page.getByTestId('agent-call').click();
  await expect(status(page)).toHaveText('通话已结束，再见', { timeout: 20_000 });
  expect((await callState(page)).spoken.pop()).toMatch(/^好的，再见/);
  await context.close();

  // No SpeechRecognition and no recognizer on the site: no control at all.
  const bare = await browser.newContext({ baseURL: plainSite, locale: 'zh-CN' });
  await noBrowserRecognizer(bare);
  const none = await bare.newPage();
  await none.goto('/');
  await hydrated(none, 'home');
  await expect(none.getByTestId('agent-call')).toHaveCount(0);
  await expect(none.getByTestId('agent-mic')).toHaveCount(0);
  await bare.close();
});
