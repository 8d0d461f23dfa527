import { test, expect, Page } from '@playwright/test';
import { recordSpeech, hydrated, spoken, lastSpoken, isWasm, seriousViolations } from './helpers';

// The accessibility checks that hold today: axe-core on every page (no
// serious or critical violation), no horizontal scrolling on a phone, the
// seed conversation by keyboard alone, Escape folding the panel, and the time
// until the panel's input is enabled (printed).

// Every page of the site, as a student reaches it.
const PAGES: [string, string][] = [
  ['home', '/'],
  ['ranking', `/ranking?school=${encodeURIComponent('北京大学')}&major=${encodeURIComponent('计算机科学与技术')}`],
  ['choose a major', `/ranking?school=${encodeURIComponent('北京大学')}`],
  ['detail', '/advisor/1'],
  ['review form', '/advisor/1/review'],
  ['compare', '/compare?ids=1,2'],
  ['search', `/search?q=${encodeURIComponent('张')}`],
  ['404', '/advisor/999999999'],
];

for (const [name, path] of PAGES) {
  test(`axe finds nothing serious on the ${name} page`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator('#page-context')).toBeAttached();
    // Hydrated: before it the input serves the page's script (early.js).
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
    await expect(page.getByTestId('agent-input')).toBeEnabled();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('axe finds nothing serious on the admin page', async ({ page }) => {
  await page.goto('/admin?token=e2e-admin');
  await expect(page.locator('h1')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test.describe('on a phone (375 × 812)', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  for (const [name, path] of PAGES) {
    test(`the ${name} page never scrolls sideways, panel open or folded`, async ({ page }) => {
      await page.goto(path);
      // Hydrated: before it the input serves the page's script (early.js).
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
      await expect(page.getByTestId('agent-input')).toBeEnabled();
      const overflow = () =>
        page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await page.getByTestId('agent-toggle').click();
      await expect(page.getByTestId('agent-toggle')).toHaveAttribute('aria-expanded', 'false');
      expect(await overflow()).toBeLessThanOrEqual(0);
    });
  }

  test("the open panel never covers a page's main action", async ({ page }) => {
    for (const [path, action] of [
      ['/', '.search-form button[type=submit]'],
      ['/advisor/1', '[data-testid=write-review]'],
      ['/advisor/1/review', '[data-testid=review-submit]'],
    ]) {
      await page.goto(path);
      // Hydrated: before it the input serves the page's script (early.js).
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
      await expect(page.getByTestId('agent-input')).toBeEnabled();
      await expect(page.getByTestId('agent-toggle')).toHaveAttribute('aria-expanded', 'true');
      const target = page.locator(action).first();
      await target.scrollIntoViewIfNeeded();
      const onTop = await target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit !== null && (hit === el || el.contains(hit));
      });
      expect(onTop, `${action} on ${path}`).toBe(true);
    }
  });

  test('the panel and the page controls are big enough to tap', async ({ page }) => {
    await page.goto(PAGES[1][1]);
    // Hydrated: before it the input serves the page's script (early.js).
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
    await expect(page.getByTestId('agent-input')).toBeEnabled();
    const small = await page.evaluate(() => {
      const out: string[] = [];
      for (const el of Array.from(document.querySelectorAll('.agent-panel button, .agent-panel input, .site-header a, .site-header button, .site-header input'))) {
        const r = (el as HTMLElement).getBoundingClientRect();
        if (r.width > 0 && (r.width < 44 || r.height < 44)) out.push(`${el.className || el.tagName} ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
      return out;
    });
    expect(small).toEqual([]);
  });
});

test.describe('by keyboard alone', () => {
  test.beforeEach(async ({ page }) => recordSpeech(page));

  async function tabTo(page: Page, testId: string, max = 80) {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
      if (focused === testId) return;
    }
    throw new Error(`Tab never reached ${testId}`);
  }

  async function enter(page: Page, text: string) {
    const before = (await spoken(page)).length;
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await spoken(page)).length).toBeGreaterThan(before);
    // Hydrated: before it the input serves the page's script (early.js).
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
    await expect(page.getByTestId('agent-input')).toBeEnabled();
  }

  test('the seed conversation, chips included, and Escape folds the panel', async ({ page }) => {
    await page.goto('/');
    await hydrated(page, 'home');
    await tabTo(page, 'agent-input');
    await enter(page, '我想考北京大学');
    // A chip by keyboard: the chips sit just before the input, so
    // Shift+Tab reaches them; Enter sends one.
    const before = (await spoken(page)).length;
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Shift+Tab');
      const text = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText ?? '');
      if (text.includes('计算机科学与技术')) break;
    }
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await spoken(page)).length).toBeGreaterThan(before);
    await expect(page).toHaveURL(/\/ranking\?school=/);
    // Hydrated: before it the input serves the page's script (early.js).
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
    await expect(page.getByTestId('agent-input')).toBeEnabled();

    await tabTo(page, 'agent-input');
    await enter(page, '我想做机器学习，希望导师温和一点');
    expect(await lastSpoken(page)).toContain('张三');
    await enter(page, '第一个导师怎么样？');
    await enter(page, '我想看看他的详细信息');
    await expect(page).toHaveURL(/\/advisor\/\d+/);
    await hydrated(page, 'detail');
    if (!(await page.getByTestId('agent-input').evaluate((el) => el === document.activeElement))) {
      await tabTo(page, 'agent-input');
    }
    await enter(page, '他的学生评价怎么样？');
    expect(await lastSpoken(page)).toMatch(/^张三的学生评价/);
    // Replies are announced: the message list is a polite live region.
    await expect(page.getByTestId('agent-messages')).toHaveAttribute('aria-live', 'polite');

    await page.keyboard.press('Escape');
    await expect(page.getByTestId('agent-toggle')).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('agent-toggle')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('agent-toggle')).toHaveAttribute('aria-expanded', 'true');
  });
});

test('time until the panel can be used, on the home and the ranking page', async ({ browser }) => {
  for (const [name, path] of [PAGES[0], PAGES[1]]) {
    // A fresh browser profile each: nothing cached, as a first visit.
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, locale: 'zh-CN' });
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(path);
    await expect(page.getByTestId('agent-input')).toBeEnabled();
    const ms = Date.now() - started;
    // What came over the wire for the page's code (the server gzips it).
    const code = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        .filter((e) => e.name.endsWith('.wasm') || e.name.endsWith('.js'))
        .map((e) => ({ bytes: e.encodedBodySize, ms: Math.round(e.duration) })),
    );
    const kb = code.reduce((n, c) => n + c.bytes, 0) / 1024;
    console.log(
      `interactive: ${name} ${ms} ms; code ${kb.toFixed(1)} KB over the wire in ${code.map((c) => c.ms).join(' + ')} ms`,
    );
    expect(ms).toBeGreaterThan(0);
    await context.close();
  }
});

// The WASM (one file, named after its content) that does not arrive must not
// leave a dead page: the panel says so (the page's inline script, as no WASM
// can report its own absence), and the server-rendered page (its content,
// links and forms) works without it.
test("a page whose WASM does not arrive says so in the panel and its links still work", async ({ page }) => {
  const aborted: string[] = [];
  await page.route(isWasm, (route) => {
    aborted.push(route.request().url());
    return route.abort('connectionfailed');
  });
  await page.goto('/');
  await expect(page.getByTestId('agent-load-error')).toContainText('页面功能加载失败');
  await expect(page.getByTestId('agent-load-error')).toHaveAttribute('role', 'alert');
  expect(aborted.length).toBeGreaterThan(0);
  // The panel cannot answer, so it does not pretend to.
  await expect(page.getByTestId('agent-input')).toBeDisabled();
  // The page is all there, and its links lead on (as full page loads).
  await expect(page.getByRole('heading', { level: 1 })).toContainText('找导师');
  await page.getByRole('link', { name: '示例排行' }).click();
  await expect(page).toHaveURL(/\/ranking\?/);
  await expect(page.getByTestId('ranking-stats')).toBeVisible();
});

// The files a page names: the module and the WASM (preloaded) and the CSS.
async function siteFiles(request: import('@playwright/test').APIRequestContext): Promise<string[]> {
  const html = await (await request.get('/')).text();
  return [...html.matchAll(/href="(\/pkg\/[^"]+)"/g)].map((m) => m[1]);
}

test('the site files are named after their content and kept for good; pages are revalidated', async ({ request }) => {
  const page = await request.get('/');
  expect(page.headers()['cache-control']).toBe('no-cache');
  const files = await siteFiles(request);
  expect(files.some((f) => f.endsWith('.wasm'))).toBe(true);
  expect(files.some((f) => f.endsWith('.js'))).toBe(true);
  expect(files.some((f) => f.endsWith('.css'))).toBe(true);
  for (const f of files) {
    // advisor-review.<hash>.<ext>
    expect(f).toMatch(/^\/pkg\/advisor-review\.[^.]+\.(wasm|js|css)$/);
    const r = await request.get(f);
    expect(r.status()).toBe(200);
    expect(r.headers()['cache-control']).toContain('immutable');
    expect(r.headers()['vary']).toContain('accept-encoding');
  }
  // A file of another deploy is a 404, and not kept.
  const gone = await request.get('/pkg/advisor-review.0000000000.wasm');
  expect(gone.status()).toBe(404);
  expect(gone.headers()['cache-control'] ?? '').not.toContain('immutable');
});

test('the WASM is sent precompressed to browsers that accept brotli or gzip', async ({ request }) => {
  const wasm = (await siteFiles(request)).find((f) => f.endsWith('.wasm'))!;
  for (const [accept, encoding] of [['br', 'br'], ['gzip', 'gzip']]) {
    const r = await request.get(wasm, { headers: { 'accept-encoding': accept } });
    expect(r.status()).toBe(200);
    expect(r.headers()['content-encoding']).toBe(encoding);
    expect(r.headers()['content-type']).toContain('application/wasm');
  }
});
