// `make bench-front`: from navigation to the agent's first answer.
//
// For home, a ranking page and an advisor's page, in a fresh browser context
// (cold: empty HTTP cache) and then in a second tab of the same context (warm:
// the HTTP cache of the first visit, a new conversation, since the panel keeps
// its session per tab), on two profiles:
//   slow-4g   Lighthouse's mobile profile through CDP: 150 ms latency per
//             request, 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower;
//   loopback  no throttling.
// A visit types the message into the panel as soon as its input is enabled
// (the page's script enables it before the WASM arrives, early.js), sends it
// and waits for the agent's reply to show text in the panel, then for the app
// to take over (hydration, which applies the reply to the page).
// BENCH_TYPING says how the message is typed (below), BENCH_MESSAGE replaces
// it, BENCH_PROFILES=slow-4g or loopback runs one profile. Printed per
// profile, the median of BENCH_RUNS runs (default 3) of every column on its
// own:
//   usable    ms from navigation start until the panel's input is enabled
//   sent      ms until the message was submitted
//   answer    ms until the first words of the reply are in the panel
//   app       ms until the page is hydrated (<html data-hydrated>): the reply
//             applied to the page (navigation, highlights) from then on
//   reqs      requests whose response began before the answer (the turn's
//             own included; not those the reply starts, e.g. the next page's
//             chunks when it navigates), of them .wasm (preloaded: asked for
//             by the HTML's <link rel=preload>, not by a script) and .js;
//             cached: served from the HTTP cache without a request, 304:
//             revalidated
//   KB        bytes received before the answer as they came over the wire
//             (compressed as the server sent them: Chromium asks 127.0.0.1
//             for brotli; headers included; KB = 1024 bytes), of them .wasm
//             and .js
// No assertion on time: numbers only. BENCH_WATERFALL=1 also prints every
// request of each page's first cold and warm visit; every visit is written
// to test-results/ as JSON.
import { test, expect, Browser, BrowserContext, CDPSession } from '@playwright/test';
import { statSync, readdirSync, writeFileSync } from 'fs';
import * as path from 'path';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const MESSAGE = process.env.BENCH_MESSAGE ?? '北京大学计算机系有哪些导师';
const WATERFALL = process.env.BENCH_WATERFALL === '1';
// instant: the page submits the message itself the moment the input is
// usable (what the site takes, without anyone's typing); playwright: typed
// by Playwright (fill, Enter), whose round trips to a CPU-throttled page add
// about half a second.
const TYPING = process.env.BENCH_TYPING === 'playwright' ? 'playwright' : 'instant';
const ONLY = process.env.BENCH_PROFILES?.split(',');
// A visit that has no answer after this long is reported as failed.
const VISIT_TIMEOUT = 90_000;

type Profile = {
  name: string;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
  cpu: number;
};
// Lighthouse's mobileSlow4G (rttMs 150, throughputKbps 1.6 × 1024,
// uploadThroughputKbps 750, cpuSlowdownMultiplier 4), in the units of
// Network.emulateNetworkConditions (bytes per second).
const PROFILES: Profile[] = [
  {
    name: 'slow-4g',
    network: { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
    cpu: 4,
  },
  { name: 'loopback', cpu: 1 },
].filter((p) => !ONLY || ONLY.includes(p.name));

type Request = {
  id: string;
  url: string;
  kind: 'wasm' | 'js' | 'other';
  start: number; // CDP monotonic seconds
  end?: number;
  status?: number;
  cached: boolean;
  // Asked for by the HTML itself (`<link rel=preload>`), not by a script.
  preload: boolean;
  encoding?: string;
  // (time, bytes received so far on the wire); the first entry is the response
  received: [number, number][];
  failed?: string;
};

type Visit = {
  page: string;
  visit: 'cold' | 'warm';
  usable: number;
  sent: number;
  answer: number;
  app: number;
  reqs: number;
  wasm: number;
  js: number;
  preloaded: number;
  cached: number;
  revalidated: number;
  kb: number;
  wasmKb: number;
  jsKb: number;
  answerText: string;
  encodings: string[];
  waterfall: string[];
};

// Records, in the page, when the panel's input becomes usable, when the
// message is submitted and when the reply first shows text: a mutation
// observer on the whole document, so no polling delays the times.
function installProbe(send: { message: string; instant: boolean }) {
  type Probe = {
    usableAt: number | null;
    sentAt: number | null;
    answerAt: number | null;
    answerText: string | null;
    appAt: number | null;
    error: string | null;
    usable: Promise<number>;
    answered: Promise<void>;
    app: Promise<void>;
  };
  let resolveApp: () => void = () => {};
  let resolveUsable: (t: number) => void = () => {};
  let resolveAnswer: () => void = () => {};
  const probe: Probe = {
    usableAt: null,
    sentAt: null,
    answerAt: null,
    answerText: null,
    appAt: null,
    error: null,
    usable: new Promise((r) => (resolveUsable = r)),
    answered: new Promise((r) => (resolveAnswer = r)),
    app: new Promise((r) => (resolveApp = r)),
  };
  let before = 0;
  const assistant = () =>
    Array.from(document.querySelectorAll('[data-testid=agent-message][data-role=assistant]'));
  const check = () => {
    const now = performance.now();
    const input = document.querySelector('[data-testid=agent-input]') as HTMLInputElement | null;
    if (probe.usableAt === null && input && !input.disabled) {
      probe.usableAt = now;
      resolveUsable(now);
      if (send.instant && input.form) {
        // The message as if it had been typed in no time: the value, the
        // input event the app's draft follows, the submit.
        input.value = send.message;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        input.form.requestSubmit();
      }
    }
    if (probe.appAt === null && document.documentElement?.hasAttribute('data-hydrated')) {
      probe.appAt = now;
      resolveApp();
    }
    if (probe.sentAt !== null && probe.answerAt === null) {
      const reply = assistant()
        .slice(before)
        .find((m) => (m.textContent ?? '').trim() !== '');
      const error = document.querySelector('[data-testid=agent-error]');
      if (reply || error) {
        probe.answerAt = now;
        probe.answerText = (reply ?? error)!.textContent ?? '';
        if (!reply) probe.error = probe.answerText;
        resolveAnswer();
      }
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  document.addEventListener(
    'submit',
    () => {
      if (probe.sentAt === null) {
        probe.sentAt = performance.now();
        before = assistant().length;
      }
    },
    true,
  );
  (window as unknown as { __bench: Probe }).__bench = probe;
}

function kindOf(url: string): Request['kind'] {
  const p = new URL(url).pathname;
  if (p.endsWith('.wasm')) return 'wasm';
  if (p.endsWith('.js')) return 'js';
  return 'other';
}

function receivedBy(r: Request, t: number): number {
  let n = 0;
  for (const [at, total] of r.received) if (at <= t) n = total;
  return n;
}

// Every request of a page, from the page's own CDP session (which also
// applies the throttling).
function recordRequests(cdp: CDPSession) {
  const requests = new Map<string, Request>();
  let document: { ts: number; wall: number } | null = null;
  cdp.on('Network.requestWillBeSent', (e) => {
    const url = e.request.url;
    if (url.startsWith('data:')) return;
    if (!document && e.type === 'Document') document = { ts: e.timestamp, wall: e.wallTime };
    // A redirect keeps the request id: the later request replaces it.
    requests.set(e.requestId, {
      id: e.requestId,
      url,
      kind: kindOf(url),
      start: e.timestamp,
      cached: false,
      preload: e.initiator.type === 'parser',
      received: [],
    });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.cached = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.status = e.response.status;
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    r.encoding = headers['content-encoding'];
    if (e.response.fromDiskCache || e.response.fromPrefetchCache) r.cached = true;
    r.received.push([e.timestamp, e.response.encodedDataLength ?? 0]);
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    const so = r.received.length ? r.received[r.received.length - 1][1] : 0;
    r.received.push([e.timestamp, so + (e.encodedDataLength ?? 0)]);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.end = e.timestamp;
    r.received.push([e.timestamp, e.encodedDataLength]);
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.end = e.timestamp;
    r.failed = e.errorText;
  });
  return {
    requests,
    // Page time (ms since its time origin) to CDP's monotonic clock (s).
    toMonotonic(timeOrigin: number, ms: number): number {
      if (!document) throw new Error('no document request seen');
      return document.ts + ((timeOrigin + ms) / 1000 - document.wall);
    },
    fromMonotonic(timeOrigin: number, s: number): number {
      if (!document) throw new Error('no document request seen');
      return (s - document.ts + document.wall) * 1000 - timeOrigin;
    },
  };
}

async function visit(
  context: BrowserContext,
  profile: Profile,
  page: string,
  url: string,
  kind: 'cold' | 'warm',
): Promise<Visit> {
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Network.enable');
  if (kind === 'cold') await cdp.send('Network.clearBrowserCache');
  if (profile.network) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      connectionType: 'cellular4g',
      ...profile.network,
    });
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
  const net = recordRequests(cdp);
  await tab.addInitScript(installProbe, { message: MESSAGE, instant: TYPING === 'instant' });

  await tab.goto(url, { waitUntil: 'commit' });
  const usable = (await within(
    tab.evaluate(() => (window as unknown as { __bench: { usable: Promise<number> } }).__bench.usable),
    `${page} ${kind}: the panel's input never became usable`,
  )) as number;
  if (TYPING === 'playwright') {
    const input = tab.getByTestId('agent-input');
    await input.fill(MESSAGE);
    await input.press('Enter');
  }
  await within(
    tab.evaluate(() => (window as unknown as { __bench: { answered: Promise<void> } }).__bench.answered),
    `${page} ${kind}: no answer`,
  );
  await within(
    tab.evaluate(() => (window as unknown as { __bench: { app: Promise<void> } }).__bench.app),
    `${page} ${kind}: never hydrated`,
  );
  const probe = (await tab.evaluate(() => {
    const b = (window as unknown as { __bench: Record<string, unknown> }).__bench;
    return {
      timeOrigin: performance.timeOrigin,
      sentAt: b.sentAt as number,
      answerAt: b.answerAt as number,
      answerText: b.answerText as string,
      appAt: b.appAt as number,
      error: b.error as string | null,
    };
  })) as {
    timeOrigin: number;
    sentAt: number;
    answerAt: number;
    answerText: string;
    appAt: number;
    error: string | null;
  };
  if (probe.error) throw new Error(`${page} ${kind}: the panel showed an error: ${probe.error}`);

  const answerTs = net.toMonotonic(probe.timeOrigin, probe.answerAt);
  // What the answer waited for: every request whose response (from the
  // network or the cache) had begun to arrive before it. Requests the reply
  // itself starts (the next page's chunks, when it navigates) are not.
  const before = [...net.requests.values()].filter(
    (r) => r.received.length > 0 && r.received[0][0] <= answerTs,
  );
  const bytes = (rs: Request[]) => rs.reduce((n, r) => n + receivedBy(r, answerTs), 0) / 1024;
  const network = before.filter((r) => !r.cached);
  const ms = (s: number) => Math.round(net.fromMonotonic(probe.timeOrigin, s));
  const waterfall = [...net.requests.values()]
    .sort((a, b) => a.start - b.start)
    .map((r) => {
      const p = new URL(r.url);
      const tag = (r.cached ? 'cache' : r.failed ? `failed ${r.failed}` : String(r.status ?? '…')) + (r.preload ? '*' : '');
      const end = r.end === undefined ? '…' : String(ms(r.end));
      const kb = (receivedBy(r, Infinity) / 1024).toFixed(1);
      const after = before.includes(r) ? '' : ' (not before the answer)';
      return `${String(ms(r.start)).padStart(6)} → ${end.padStart(6)} ms ${kb.padStart(7)} KB ${tag.padEnd(6)} ${p.pathname}${p.search}${after}`;
    });
  await tab.close();
  return {
    page,
    visit: kind,
    usable: Math.round(usable),
    sent: Math.round(probe.sentAt),
    answer: Math.round(probe.answerAt),
    app: Math.round(probe.appAt),
    reqs: before.length,
    wasm: before.filter((r) => r.kind === 'wasm').length,
    js: before.filter((r) => r.kind === 'js').length,
    preloaded: before.filter((r) => r.kind === 'wasm' && r.preload).length,
    cached: before.filter((r) => r.cached).length,
    revalidated: network.filter((r) => r.status === 304).length,
    kb: bytes(before),
    wasmKb: bytes(before.filter((r) => r.kind === 'wasm')),
    jsKb: bytes(before.filter((r) => r.kind === 'js')),
    answerText: probe.answerText,
    encodings: [...new Set(before.filter((r) => r.kind === 'wasm' && !r.cached).map((r) => r.encoding ?? 'none'))],
    waterfall,
  };
}

async function within<T>(work: Promise<T>, failure: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${failure} within ${VISIT_TIMEOUT / 1000} s`)), VISIT_TIMEOUT);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function table(profile: Profile, visits: Visit[]): string {
  const rows = [
    `${profile.name} (median of ${RUNS}; WASM as ${[...new Set(visits.flatMap((v) => v.encodings))].join(', ')})`,
    '',
    '| page | visit | usable ms | sent ms | answer ms | app ms | reqs | .wasm | preloaded | .js | cached / 304 | KB | .wasm KB | .js KB |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const keys = [...new Set(visits.map((v) => `${v.page}|${v.visit}`))];
  for (const key of keys) {
    const vs = visits.filter((v) => `${v.page}|${v.visit}` === key);
    const m = (f: (v: Visit) => number) => median(vs.map(f));
    const [page, kind] = key.split('|');
    rows.push(
      `| ${page} | ${kind} | ${m((v) => v.usable)} | ${m((v) => v.sent)} | ${m((v) => v.answer)} | ${m((v) => v.app)} | ` +
        `${m((v) => v.reqs)} | ${m((v) => v.wasm)} | ${m((v) => v.preloaded)} | ${m((v) => v.js)} | ${m((v) => v.cached)} / ${m((v) => v.revalidated)} | ` +
        `${m((v) => v.kb).toFixed(0)} | ${m((v) => v.wasmKb).toFixed(0)} | ${m((v) => v.jsKb).toFixed(0)} |`,
    );
  }
  return rows.join('\n');
}

// The build measured: its WASM files (one, named after its content, kept by
// the browser for good: server http::assets), and how long ago it was built.
function siteAge(): string {
  const root = process.env.BENCH_SITE_ROOT ?? path.resolve(__dirname, '..', '..', 'target', 'site');
  try {
    const pkg = path.join(root, 'pkg');
    const files = readdirSync(pkg).filter((f) => f.endsWith('.wasm') || f.endsWith('.js'));
    const newest = Math.max(...files.map((f) => statSync(path.join(pkg, f)).mtimeMs));
    const wasm = files.filter((f) => f.endsWith('.wasm')).length;
    return `${root}: ${wasm} .wasm file(s), built ${((Date.now() - newest) / 60_000).toFixed(0)} min ago`;
  } catch {
    return `${root}: not readable`;
  }
}

test('from navigation to the agent\'s first answer', async ({ browser, request }, testInfo) => {
  const ranking = await request.get('/api/v1/advisors', {
    params: { school: '北京大学', major: '计算机科学与技术' },
  });
  expect(ranking.ok()).toBeTruthy();
  const first = ((await ranking.json()) as { advisors: { id: string }[] }).advisors[0];
  const pages: [string, string][] = [
    ['home', '/'],
    ['ranking', `/ranking?school=${encodeURIComponent('北京大学')}&major=${encodeURIComponent('计算机科学与技术')}`],
    ['detail', `/advisor/${first.id}`],
  ];
  console.log(`site ${siteAge()}; message 「${MESSAGE}」 typed ${TYPING}; ${RUNS} runs`);
  const started = Date.now();
  const all: Record<string, Visit[]> = {};
  for (const profile of PROFILES) {
    const visits: Visit[] = [];
    for (let run = 0; run < RUNS; run++) {
      for (const [page, url] of pages) {
        const context = await newContext(browser);
        for (const kind of ['cold', 'warm'] as const) {
          const v = await visit(context, profile, page, url, kind);
          visits.push(v);
          if (WATERFALL && run === 0) {
            console.log(
              `\n${profile.name} ${page} ${kind}: answer at ${v.answer} ms 「${v.answerText.slice(0, 30)}」 ` +
                '(start → end ms from navigation, KB received, status; * preloaded by the HTML)',
            );
            console.log(v.waterfall.join('\n'));
          }
        }
        await context.close();
      }
    }
    all[profile.name] = visits;
    console.log('\n' + table(profile, visits) + '\n');
  }
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s for ${RUNS} runs`);
  const out = testInfo.outputPath('front.json');
  writeFileSync(out, JSON.stringify(all, null, 1));
  console.log(`every visit: ${path.relative(process.cwd(), out)}`);
});

async function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: test.info().project.use.baseURL,
    locale: 'zh-CN',
    viewport: { width: 412, height: 823 },
    isMobile: false,
  });
}
