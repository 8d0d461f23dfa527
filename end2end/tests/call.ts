import { Page } from '@playwright/test';
import * as fs from 'fs';

// What the voice-call tests share (tests/voice-call.spec.ts, and
// asr/call.spec.ts in `make eval-asr`).

// A voiced, speech-like signal for Chromium's fake microphone, made here
// and the same every time (no recording, no synthesised voice): `bursts`
// "utterances" of syllables — a 120–180 Hz voice with its harmonics, each
// syllable gliding in pitch under a rise-and-fall envelope, short dips
// between them — separated by `gap` seconds of quiet with a little noise,
// after `lead` seconds of it. The site's own endpointer hears each burst as
// one utterance (voiced, well over the room) and its end as the pause.
// Returns the times (s) each burst ends, for the eval's timings.
export function writeVoicedWav(
  file: string,
  opts: { bursts: number; syllables?: number; gap: number; lead?: number; rate?: number },
): number[] {
  const rate = opts.rate ?? 16_000;
  const syllables = opts.syllables ?? 5;
  const lead = opts.lead ?? 0.5;
  const syllable = 0.22;
  const dip = 0.06;
  const burst = syllables * (syllable + dip);
  const total = lead + opts.bursts * (burst + opts.gap);
  const n = Math.round(total * rate);
  const pcm = new Int16Array(n);
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed / 0x7fffffff) * 2 - 1;
  };
  const ends: number[] = [];
  let phase = 0;
  for (let b = 0; b < opts.bursts; b++) ends.push(lead + b * (burst + opts.gap) + burst);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    let x = 0.002 * noise();
    const k = Math.floor((t - lead) / (burst + opts.gap));
    const inBurst = t - lead - k * (burst + opts.gap);
    if (t >= lead && k < opts.bursts && inBurst < burst) {
      const s = Math.floor(inBurst / (syllable + dip));
      const u = inBurst - s * (syllable + dip);
      if (u < syllable) {
        const f0 = 120 + 15 * ((s * 7 + k * 3) % 5) + 40 * (u / syllable);
        phase += (2 * Math.PI * f0) / rate;
        const envelope = Math.sin((Math.PI * u) / syllable) ** 0.6;
        let v = 0;
        for (let h = 1; h <= 10; h++) v += Math.sin(h * phase) / h;
        x += 0.22 * envelope * v;
      }
    }
    pcm[i] = Math.max(-32767, Math.min(32767, Math.round(x * 32767)));
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + pcm.byteLength, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(pcm.byteLength, 40);
  fs.writeFileSync(file, Buffer.concat([header, Buffer.from(pcm.buffer)]));
  return ends;
}

// A speech engine that takes time to speak, as a real one does: each
// utterance "speaks" for `ms` (speaking stays true meanwhile, queued ones
// after it), so the call can tell when the agent has finished and can be
// interrupted. The reply to the student's `holdAtTurn`-th message is held
// until cancelled: the agent is still talking when the student cuts in.
// Records what was said, when, and what cancel() cut off.
export async function speakingEngine(page: Page, opts: { ms: number; holdAtTurn?: number }) {
  await page.addInitScript((o: { ms: number; holdAtTurn?: number }) => {
    type U = { text: string };
    const w = window as unknown as Record<string, unknown>;
    const spoken: string[] = [];
    const spokenAt: { text: string; at: number; turn: number }[] = [];
    const cut: string[] = [];
    w.__spoken = spoken;
    w.__spokenAt = spokenAt;
    w.__cut = cut;
    w.__cancelled = 0;
    const queue: U[] = [];
    let current: U | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const turns = () => document.querySelectorAll('[data-testid=agent-message][data-role=user]').length;
    const engine = {
      speaking: false,
      pending: false,
      paused: false,
      speak(u: U) {
        spoken.push(u.text);
        spokenAt.push({ text: u.text, at: performance.now(), turn: turns() });
        queue.push(u);
        engine.pending = current !== null;
        if (!current) next();
      },
      cancel() {
        w.__cancelled = (w.__cancelled as number) + 1;
        if (current) cut.push(current.text);
        queue.length = 0;
        current = null;
        if (timer !== undefined) clearTimeout(timer);
        engine.speaking = false;
        engine.pending = false;
      },
      getVoices() {
        return [];
      },
      addEventListener() {},
      removeEventListener() {},
    };
    const next = () => {
      current = queue.shift() ?? null;
      engine.pending = queue.length > 0;
      engine.speaking = current !== null;
      if (!current || (o.holdAtTurn !== undefined && turns() === o.holdAtTurn)) return;
      timer = setTimeout(next, o.ms);
    };
    Object.defineProperty(window, 'speechSynthesis', { value: engine, configurable: true });
    w.SpeechSynthesisUtterance = class {
      text: string;
      lang = '';
      rate = 1;
      pitch = 1;
      voice: unknown = null;
      constructor(text: string) {
        this.text = text;
      }
    };
  }, opts);
}

// Every phase the call's status line showed, in order, and whether the
// microphone's tracks are all released.
export async function watchCall(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    const phases: string[] = [];
    const streams: MediaStream[] = [];
    w.__phases = phases;
    w.__streams = streams;
    new MutationObserver(() => {
      const status = document.querySelector('[data-testid=agent-call-status]');
      const phase = status?.getAttribute('data-phase');
      if (phase && phases[phases.length - 1] !== phase) phases.push(phase);
    }).observe(document, { subtree: true, attributes: true, childList: true, attributeFilter: ['data-phase'] });
    const media = navigator.mediaDevices;
    if (media?.getUserMedia) {
      const open = media.getUserMedia.bind(media);
      media.getUserMedia = async (constraints?: MediaStreamConstraints) => {
        const stream = await open(constraints);
        streams.push(stream);
        (w.__constraints as unknown) = constraints;
        return stream;
      };
    }
  });
}

export async function callState(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as {
      __phases: string[];
      __spoken: string[];
      __cut: string[];
      __streams: MediaStream[];
      __constraints?: MediaStreamConstraints;
    };
    return {
      phases: w.__phases,
      spoken: w.__spoken,
      cut: w.__cut,
      micLive: w.__streams.some((s) => s.getTracks().some((t) => t.readyState === 'live')),
      opened: w.__streams.length,
      constraints: JSON.stringify(w.__constraints ?? null),
    };
  });
}
