import { test, expect, APIRequestContext } from '@playwright/test';
import { hydrated } from './helpers';

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the home page explains the site and offers a working search form', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('找导师，先看学生怎么说');
    await expect(page.locator('.site-stats')).toContainText('位导师');
    await expect(page.locator('.school-grid')).toContainText('北京大学');
    await expect(page.getByRole('heading', { name: '怎么用' })).toBeVisible();

    // The plain GET form works without any script.
    await page.fill('#search-school', '北大');
    await page.fill('#search-major', '计算机');
    await page.click('.search-form button[type=submit]');
    await expect(page).toHaveURL(/\/ranking\?school=/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('北京大学 · 计算机科学与技术');
    await expect(page.locator('.advisor-row')).not.toHaveCount(0);
  });

  test('the detail page renders profile, histogram and reviews on the server', async ({ page }) => {
    await page.goto('/ranking?school=北京大学&major=计算机科学与技术');
    await page.getByRole('link', { name: '张三', exact: true }).click();
    await expect(page.locator('.advisor-detail h1')).toContainText('张三');
    await expect(page.locator('svg.histogram .hist-row')).toHaveCount(5);
    await expect(page.locator('.review')).toHaveCount(10);
  });

  test('the ranking page shows an overview of its reviews on the server', async ({ page }) => {
    await page.goto('/ranking?school=北京大学&major=计算机科学与技术');
    const stats = page.getByTestId('ranking-stats');
    await expect(stats.getByRole('heading', { name: '数据概览' })).toBeVisible();
    await expect(stats.locator('.stats-reviews')).toContainText('条');
    await expect(stats.locator('svg.histogram .hist-row')).toHaveCount(5);
    await expect(stats.locator('.stats-most a')).toContainText('张三');
    await expect(stats.locator('.stats-best a')).toHaveCount(4);
  });

  test('the compare page draws its radar chart without any script', async ({ page, request }) => {
    const [first, second] = await firstTwoOfPkuCs(request);
    await page.goto(`/compare?ids=${first.id},${second.id}`);
    await expect(page.getByTestId('radar-chart').getByTestId('radar-series')).toHaveCount(2);
    await expect(page.locator('.compare-table')).toContainText(first.name);
  });
});

type AdvisorCard = { id: string; name: string };

// The first two advisors of 北京大学 / 计算机科学与技术, as the JSON API ranks them.
async function firstTwoOfPkuCs(request: APIRequestContext): Promise<AdvisorCard[]> {
  const res = await request.get('/api/v1/advisors', {
    params: { school: '北京大学', major: '计算机科学与技术' },
  });
  expect(res.ok()).toBeTruthy();
  const ranking = (await res.json()) as { advisors: AdvisorCard[] };
  expect(ranking.advisors.length).toBeGreaterThanOrEqual(2);
  return ranking.advisors.slice(0, 2);
}

test('two advisors side by side: a radar with both, and the page context lists them', async ({ page, request }) => {
  const [first, second] = await firstTwoOfPkuCs(request);
  await page.goto(`/compare?ids=${first.id},${second.id}`);
  await hydrated(page, 'compare');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('导师对比');
  const chart = page.getByTestId('radar-chart');
  await expect(chart).toBeVisible();
  await expect(chart.getByTestId('radar-series')).toHaveCount(2);
  await expect(page.locator('.radar-legend')).toContainText(first.name);
  await expect(page.locator('.radar-legend')).toContainText(second.name);
  await expect(page.getByRole('link', { name: first.name, exact: true })).toHaveAttribute('href', `/advisor/${first.id}`);

  const ctx = JSON.parse((await page.locator('#page-context').getAttribute('data-json')) ?? '{}');
  expect(ctx.current_page).toBe('compare');
  expect(ctx.visible_advisors.map((a: AdvisorCard) => [a.id, a.name])).toEqual([
    [first.id, first.name],
    [second.id, second.name],
  ]);
  expect(ctx.selected_advisor).toBeNull();
  expect(ctx.ranking_filters).toBeNull();
});

test('a compare link with one advisor answers 400 in Chinese', async ({ page, request }) => {
  const [first] = await firstTwoOfPkuCs(request);
  const res = await page.goto(`/compare?ids=${first.id}`);
  expect(res?.status()).toBe(400);
  await expect(page.locator('.compare-error')).toHaveText('请选择 2 到 4 位导师进行对比。');
});

test('searching 北京大学 + 计算机 leads to a ranking with 张三', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  await page.fill('#search-school', '北京大学');
  await page.fill('#search-major', '计算机');
  await page.getByRole('button', { name: '查看导师排行' }).click();
  await expect(page).toHaveURL(/\/ranking\?/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('北京大学 · 计算机科学与技术 导师排行');
  const zhang = page.locator('.advisor-row', { has: page.getByRole('link', { name: '张三', exact: true }) });
  await expect(zhang).toBeVisible();
  await expect(zhang.locator('.advisor-title')).toHaveText('教授');
});

test('clicking an advisor opens the detail page and the page context follows', async ({ page }) => {
  await page.goto('/ranking?school=北京大学&major=计算机科学与技术');
  await hydrated(page, 'ranking');
  const ctx = page.locator('#page-context');
  const ranking = JSON.parse((await ctx.getAttribute('data-json')) ?? '{}');
  expect(ranking.ranking_filters).toEqual({ school: '北京大学', major: '计算机科学与技术' });
  expect(ranking.visible_advisors.map((a: { name: string }) => a.name)).toContain('张三');
  expect(ranking.visible_advisors[0].rank).toBe(1);

  await page.getByRole('link', { name: '张三', exact: true }).click();
  await expect(page).toHaveURL(/\/advisor\/\d+$/);
  await expect(page.locator('.advisor-detail h1')).toContainText('张三');
  await expect(page.locator('.profile-directions')).toContainText('机器学习');
  await hydrated(page, 'detail');
  const detail = JSON.parse((await ctx.getAttribute('data-json')) ?? '{}');
  expect(detail.selected_advisor.name).toBe('张三');
});

test('the school box suggests canonical names for aliases once hydrated', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  await page.locator('#search-school').pressSequentially('上交');
  const suggestions = page.getByTestId('school-suggestions');
  await expect(suggestions.getByRole('button')).toHaveCount(1);
  await suggestions.getByRole('button', { name: /上海交通大学/ }).click();
  await expect(page.locator('#search-school')).toHaveValue('上海交通大学');
  await expect(suggestions.getByRole('button')).toHaveCount(0);

  await page.locator('#search-school').fill('');
  await page.locator('#search-school').pressSequentially('交大');
  await expect(suggestions.getByRole('button')).toHaveCount(4);
});

test('sorting a ranking navigates on the client without reloading', async ({ page }) => {
  await page.goto('/ranking?school=北京大学&major=计算机科学与技术');
  await hydrated(page, 'ranking');
  // A marker on window survives client-side navigation but not a reload.
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 42));
  await page.locator('.sort-tab[data-sort=funding]').click();
  await expect(page).toHaveURL(/sort=funding/);
  await expect(page.locator('.sort-tab.active')).toHaveText('科研经费');
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(42);
});

test('an ambiguous alias asks which school is meant', async ({ page }) => {
  await page.goto('/ranking?school=交大&major=计算机');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('“交大”可能指以下学校');
  await expect(page.locator('.choice-list a')).toHaveCount(4);
});

test('unknown advisors and schools get a real 404 page', async ({ page }) => {
  const advisor = await page.goto('/advisor/99999999');
  expect(advisor?.status()).toBe(404);
  await expect(page.locator('.not-found')).toContainText('没有找到这位导师');

  const school = await page.goto('/ranking?school=霍格沃茨&major=魔法');
  expect(school?.status()).toBe(404);
  await expect(page.locator('.not-found')).toContainText('霍格沃茨');

  const path = await page.goto('/no/such/page');
  expect(path?.status()).toBe(404);
});

test('every page hydrates under its Content-Security-Policy without a violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  page.on('pageerror', (e) => violations.push(String(e)));
  for (const [url, kind] of [
    ['/', 'home'],
    ['/ranking?school=北京大学&major=计算机科学与技术', 'ranking'],
  ] as const) {
    const response = await page.goto(url);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("'nonce-");
    expect(csp).toContain("frame-ancestors 'none'");
    await hydrated(page, kind);
  }
  // The panel works once hydrated: a turn over fetch under connect-src 'self'.
  await page.getByTestId('agent-input').fill('你好');
  await page.getByTestId('agent-input').press('Enter');
  await expect(page.getByTestId('agent-message')).toHaveCount(2);
  expect(violations).toEqual([]);
});
