import { test, expect, Page, APIRequestContext } from '@playwright/test';
import { seriousViolations } from './helpers';

// The pages about the site (关于, 发帖规则, 隐私说明, 申诉/更正): reached from
// every page's footer, nothing serious for axe, readable on a phone, and the
// correction form's round trip with JavaScript on and off, ending in the
// admin's list.

// [footer link and page title, path, heading]
const TRUST: [string, string, string][] = [
  ['关于', '/about', '关于导师评价网'],
  ['发帖规则', '/rules', '发帖规则'],
  ['隐私说明', '/privacy', '隐私说明'],
  ['申诉/更正', '/correction', '申诉 / 更正'],
];

async function ready(page: Page) {
  // Hydrated: before it the input serves the page's script (early.js).
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  await expect(page.getByTestId('agent-input')).toBeEnabled();
}

// The open requests for a correction, as the admin's API lists them.
async function openCorrections(request: APIRequestContext): Promise<{ id: string; contact: string; requester: string }[]> {
  const r = await request.get('/api/v1/admin/reviews', { headers: { authorization: 'Bearer e2e-admin' } });
  expect(r.status()).toBe(200);
  return (await r.json()).corrections;
}

test('every page about the site is one click away in the footer', async ({ page }) => {
  for (const [label, path, heading] of TRUST) {
    await page.goto('/advisor/1');
    await ready(page);
    // The panel folded, so that it covers none of the footer.
    const toggle = page.getByTestId('agent-toggle');
    if ((await toggle.getAttribute('aria-expanded')) === 'true') await toggle.click();
    const link = page.locator('.site-footer').getByRole('link', { name: label, exact: true });
    await link.scrollIntoViewIfNeeded();
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.locator('h1')).toHaveText(heading);
    await expect(page).toHaveTitle(`${label} · 导师评价网`);
  }
});

test('the rules page lists the posting rules', async ({ page }) => {
  await page.goto('/rules');
  const rules = page.getByTestId('content-rules').locator('li');
  await expect(rules).toHaveCount(9);
  await expect(rules.first()).toContainText('不写电话号码');
  await expect(page.getByTestId('content-rules')).toContainText('严重指控不能只凭“听说”');
});

for (const [label, path] of TRUST) {
  test(`axe finds nothing serious on the ${path} page`, async ({ page }) => {
    await page.goto(path);
    await ready(page);
    await expect(page).toHaveTitle(`${label} · 导师评价网`);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('the correction form round trip, JavaScript on', async ({ page, request }) => {
  const contact = 'e2e-js@example.com';
  await page.goto('/correction');
  await ready(page);
  await page.locator('#correction-subject').fill('清华大学 计算机科学与技术 /advisor/3');
  await page.locator('input[name=requester][value="本人"]').check();
  await page.locator('#correction-details').fill('页面上的研究方向写错了，我不做量子计算，请改为机器学习。');
  await page.locator('#correction-contact').fill(contact);
  await page.getByTestId('correction-submit').click();

  await expect(page).toHaveURL(/\/correction\?sent=1$/);
  await expect(page.getByTestId('correction-sent')).toContainText('已收到你的申诉');
  const mine = (await openCorrections(request)).find((c) => c.contact === contact);
  expect(mine?.requester).toBe('本人');

  // The admin's page lists it; 标记为已处理 takes it off the list.
  await page.goto('/admin?token=e2e-admin');
  const row = page.locator(`[data-testid=admin-correction][data-correction-id="${mine!.id}"]`);
  await expect(row).toContainText('页面上的研究方向写错了');
  await expect(row).toContainText(contact);
  await row.locator('input[name=by]').fill('e2e');
  await row.getByRole('button', { name: '标记为已处理' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.locator(`[data-testid=admin-correction][data-correction-id="${mine!.id}"]`)).toHaveCount(0);
  expect((await openCorrections(request)).some((c) => c.id === mine!.id)).toBe(false);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the correction form names what is wrong in Chinese, keeps what was typed, then sends', async ({ page, request }) => {
    const details = '这位导师的学校写错了，应该是清华大学，不是北京大学。';
    await page.goto('/advisor/2');
    await page.getByText('信息有误？申请更正').click();
    await expect(page).toHaveURL(/\/correction\?about=/);
    await expect(page.locator('#correction-subject')).toHaveValue('/advisor/2');
    await page.locator('input[name=requester][value="学生"]').check();
    await page.locator('#correction-details').fill(details);
    // Long enough for the browser, too short for the server.
    await page.locator('#correction-contact').fill('abc');
    await page.getByTestId('correction-submit').click();

    await expect(page).toHaveURL(/\/correction\?draft=/);
    await expect(page.getByTestId('form-errors')).toBeVisible();
    await expect(page.getByTestId('error-contact')).toContainText('联系方式太短了');
    await expect(page.locator('#correction-details')).toHaveValue(details);
    await expect(page.locator('#correction-subject')).toHaveValue('/advisor/2');
    await expect(page.locator('input[name=requester][value="学生"]')).toBeChecked();
    expect((await openCorrections(request)).some((c) => c.contact === 'abc')).toBe(false);

    await page.locator('#correction-contact').fill('e2e-nojs@example.com');
    await page.getByTestId('correction-submit').click();
    await expect(page).toHaveURL(/\/correction\?sent=1$/);
    await expect(page.getByTestId('correction-sent')).toContainText('已收到你的申诉');
    expect((await openCorrections(request)).some((c) => c.contact === 'e2e-nojs@example.com')).toBe(true);
  });

  test('the pages about the site are whole without JavaScript', async ({ page }) => {
    for (const [, path, heading] of TRUST) {
      await page.goto(path);
      await expect(page.locator('h1')).toHaveText(heading);
      await expect(page.locator('.site-footer .footer-links a')).toHaveCount(4);
    }
  });
});

test.describe('on a phone (375 × 812)', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  for (const [, path] of TRUST) {
    test(`the ${path} page never scrolls sideways and its footer links are big enough to tap`, async ({ page }) => {
      await page.goto(path);
      await ready(page);
      const overflow = () =>
        page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await page.locator('.site-footer').scrollIntoViewIfNeeded();
      const small = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.site-footer a'))
          .map((el) => (el as HTMLElement).getBoundingClientRect())
          .filter((r) => r.width > 0 && r.height < 44)
          .map((r) => `${Math.round(r.width)}×${Math.round(r.height)}`),
      );
      expect(small).toEqual([]);
    });
  }
});
