import { expect, Page } from '@playwright/test';
import * as fs from 'fs';

// Shared by the specs. `recordSpeech` replaces the speech engine by a
// recorder before any page script runs, so tests assert exactly what the
// panel spoke.
export async function recordSpeech(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    const spoken: string[] = [];
    w.__spoken = spoken;
    w.__cancelled = 0;
    const recorder = {
      speaking: false,
      pending: false,
      paused: false,
      speak(u: { text: string }) {
        spoken.push(u.text);
      },
      cancel() {
        w.__cancelled = (w.__cancelled as number) + 1;
      },
      getVoices() {
        return [];
      },
      addEventListener() {},
      removeEventListener() {},
    };
    Object.defineProperty(window, 'speechSynthesis', { value: recorder, configurable: true });
    w.SpeechSynthesisUtterance = class {
      text: string;
      lang = '';
      rate = 1;
      voice: unknown = null;
      constructor(text: string) {
        this.text = text;
      }
    };
  });
}

// The page is the one expected and the WASM has taken over: the server
// renders the panel's input disabled and hydration enables it. (The page
// context alone is also in the server's HTML, so it proves nothing about
// hydration: typing before it ends is lost when the inputs are hydrated.)
export async function hydrated(page: Page, currentPage: string) {
  await expect(page.locator('#page-context')).toHaveAttribute('data-current-page', currentPage);
  // Hydrated: before it the input serves the page's script (early.js).
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  await expect(page.getByTestId('agent-input')).toBeEnabled();
}

export async function spoken(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken);
}

export async function lastSpoken(page: Page): Promise<string> {
  const all = await spoken(page);
  return all[all.length - 1] ?? '';
}

// Sends a message and waits for the whole turn: the reply streams in, so its
// first words are spoken before the reply itself (chips, navigation, the saved
// session) is applied; the input comes back once it has been.
export async function send(page: Page, text: string) {
  const before = (await spoken(page)).length;
  await page.getByTestId('agent-input').fill(text);
  await page.getByTestId('agent-input').press('Enter');
  await expect.poll(async () => (await spoken(page)).length).toBeGreaterThan(before);
  // Hydrated: before it the input serves the page's script (early.js).
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  await expect(page.getByTestId('agent-input')).toBeEnabled();
}

// A browser without SpeechRecognition (as WeChat's, QQ's or Firefox's).
export async function noBrowserRecognizer(target: { addInitScript: Page['addInitScript'] }) {
  await target.addInitScript(() => {
    for (const name of ['SpeechRecognition', 'webkitSpeechRecognition']) {
      Object.defineProperty(window, name, { value: undefined, configurable: true });
    }
  });
}

// The median of timings (the evals print it; no test asserts one).
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// The site's WASM (one file, named after its content).
export const isWasm = (url: URL) => /^\/pkg\/.+\.wasm$/.test(url.pathname);

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// axe-core's serious and critical violations on the page as it is now (the
// access and trust specs check every page with it).
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol: the page's CSP allows no
  // injected script tag, and needs not to.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
}
