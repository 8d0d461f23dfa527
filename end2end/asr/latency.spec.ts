import { test, expect, chromium } from '@playwright/test';
import * as fs from 'fs';
import * as path from 'path';
import { withFakeMicrophone } from '../chromium';
import { recordSpeech, hydrated, median } from '../tests/helpers';

// How long a student waits from the end of what they said to their words on
// screen, in a real browser: Chromium's fake microphone plays one recording
// (its speech ends `speech_end` seconds into the file), the panel's
// recorder ends the recording on its own, the site's recognizer
// (`.ci/asr serve`) transcribes it, and the text appears as the student's
// message. The page notes when the microphone opened (the fake device
// starts its file then), when the recorder was stopped and when the
// message appeared, so the two waits are read off the page's own clock:
// the end of the recording after the speech (the panel's endpointer) and
// the text after the speech. `make eval-asr` writes the cases
// (ASR_BROWSER_CASES, a JSON list of {id, wav, speech_end, text}) from the
// eval's recordings; without them the espeak fixture is the one case.
// Numbers only: nothing here asserts a time.

type Case = { id: string; wav: string; speech_end: number; text: string };
type Timing = { opened?: number; stopped?: number; shown?: number; answered?: number; heard?: string };

const fixture: Case = {
  id: 'fixture',
  wav: path.resolve(__dirname, '../fixtures/asr/zh-pku-cs.wav'),
  speech_end: 3.81,
  text: '我想考北京大学计算机系',
};
const cases: Case[] = process.env.ASR_BROWSER_CASES
  ? JSON.parse(fs.readFileSync(process.env.ASR_BROWSER_CASES, 'utf8'))
  : [fixture];

test('the end of speech to the text on screen, per recording', async ({ baseURL }) => {
  test.setTimeout(60_000 + cases.length * 30_000);
  const rows: { id: string; heard: string; endpoint: number; text: number; answer: number }[] = [];
  for (const c of cases) {
    const browser = await chromium.launch(withFakeMicrophone(c.wav));
    try {
      const context = await browser.newContext({ baseURL, locale: 'zh-CN', permissions: ['microphone'] });
      await context.addInitScript(() => {
        for (const name of ['SpeechRecognition', 'webkitSpeechRecognition']) {
          Object.defineProperty(window, name, { value: undefined, configurable: true });
        }
        const timing: Timing = {};
        (window as unknown as { __timing: Timing }).__timing = timing;
        const media = navigator.mediaDevices;
        const open = media.getUserMedia.bind(media);
        media.getUserMedia = async (constraints?: MediaStreamConstraints) => {
          const stream = await open(constraints);
          timing.opened = performance.now();
          return stream;
        };
        const stop = MediaRecorder.prototype.stop;
        MediaRecorder.prototype.stop = function (this: MediaRecorder) {
          if (timing.stopped === undefined && this.state !== 'inactive') timing.stopped = performance.now();
          return stop.call(this);
        };
        new MutationObserver(() => {
          const said = document.querySelector('[data-testid=agent-message][data-role=user]');
          if (said && timing.shown === undefined) {
            timing.shown = performance.now();
            timing.heard = said.textContent ?? '';
          }
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      const page = await context.newPage();
      await recordSpeech(page);
      // When the first word of the answer is handed to the speech engine.
      await page.addInitScript(() => {
        const synth = window.speechSynthesis as unknown as { speak: (u: unknown) => void };
        const speak = synth.speak.bind(synth);
        synth.speak = (u: unknown) => {
          const timing = (window as unknown as { __timing: Timing }).__timing;
          if (timing.answered === undefined) timing.answered = performance.now();
          speak(u);
        };
      });
      await page.goto('/');
      await hydrated(page, 'home');
      await page.getByTestId('agent-mic').click();
      await expect(page.locator('[data-testid=agent-message][data-role=user]').first()).toBeVisible({
        timeout: 30_000,
      });
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __timing: Timing }).__timing.answered !== undefined))
        .toBe(true);
      const t = await page.evaluate(() => (window as unknown as { __timing: Timing }).__timing);
      const spoken = (t.opened ?? NaN) + c.speech_end * 1000;
      const row = {
        id: c.id,
        heard: t.heard ?? '',
        endpoint: ((t.stopped ?? NaN) - spoken) / 1000,
        text: ((t.shown ?? NaN) - spoken) / 1000,
        answer: ((t.answered ?? NaN) - spoken) / 1000,
      };
      rows.push(row);
      console.log(
        `${c.id}: said 「${c.text}」, heard 「${row.heard}」; recording ended ${row.endpoint.toFixed(2)} s ` +
          `after the speech, text on screen ${row.text.toFixed(2)} s after it, first word of the answer ${row.answer.toFixed(2)} s`,
      );
    } finally {
      await browser.close();
    }
  }
  const summary = {
    recordings: rows.length,
    endpoint_p50: median(rows.map((r) => r.endpoint)),
    text_p50: median(rows.map((r) => r.text)),
    text_max: Math.max(...rows.map((r) => r.text)),
    answer_p50: median(rows.map((r) => r.answer)),
    rows,
  };
  console.log(
    `end of speech → text on screen, ${rows.length} recordings: p50 ${summary.text_p50.toFixed(2)} s ` +
      `(max ${summary.text_max.toFixed(2)} s), first word of the answer p50 ${summary.answer_p50.toFixed(2)} s; ` +
      `the recording ended ${summary.endpoint_p50.toFixed(2)} s ` +
      `after the speech (p50)`,
  );
  if (process.env.ASR_BROWSER_OUT) fs.writeFileSync(process.env.ASR_BROWSER_OUT, JSON.stringify(summary, null, 1));
  expect(rows.length).toBe(cases.length);
});
