import { test, expect, APIRequestContext } from '@playwright/test';

// Writing reviews with the form (JavaScript off), reporting, and the admin.
// Each test writes about its own advisor so the tests do not depend on each other.

// An advisor of 清华大学 · 计算机科学与技术 (the agent tests write about 北京大学's).
async function advisorId(request: APIRequestContext, index: number): Promise<string> {
  const r = await request.get(`/api/v1/advisors?school=${encodeURIComponent('清华大学')}&major=${encodeURIComponent('计算机科学与技术')}`);
  expect(r.status()).toBe(200);
  const body = await r.json();
  expect(body.advisors.length).toBeGreaterThan(index);
  return body.advisors[index].id as string;
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the review form refuses a phone number next to the text, then publishes', async ({ page, request }) => {
    const id = await advisorId(request, 0);
    await page.goto(`/advisor/${id}`);
    await page.getByTestId('write-review').click();
    await expect(page).toHaveURL(new RegExp(`/advisor/${id}/review$`));
    for (const field of ['academic', 'funding', 'relationship', 'prospects', 'overall']) {
      await page.locator(`input[name=${field}][value="4"]`).check();
    }
    await page.locator('input[name=tags][value="负责"]').check();
    await page.locator('input[name=relation][value="已毕业"]').check();
    await page.locator('#review-text').fill('老师指导很认真，有问题可以打我电话13812345678，每周组会都会讨论论文。');
    await page.getByTestId('review-submit').click();

    await expect(page.getByTestId('error-text')).toContainText('手机号码');
    await expect(page.locator('#review-text')).toHaveValue(/每周组会都会讨论论文/);
    await expect(page.locator('input[name=relation][value="已毕业"]')).toBeChecked();

    const text = '老师指导很认真，每周组会都会讨论论文，经费够用，毕业的师兄都去了好单位。';
    await page.locator('#review-text').fill(text);
    await page.getByTestId('review-submit').click();
    await expect(page).toHaveURL(new RegExp(`/advisor/${id}\\?posted=\\d+#review-\\d+$`));
    await expect(page.getByTestId('review-notice')).toContainText('已发布');
    const rid = new URL(page.url()).searchParams.get('posted');
    await expect(page.locator(`#review-${rid}`)).toContainText(text);
  });
});

test('a report hides nothing by itself; the admin sees it and hides the review', async ({ page, request }) => {
  const id = await advisorId(request, 1);
  const text = '这条评价会被举报：组会很少，指导不多，经费一般，毕业去向普通。';
  const posted = await request.post(`/api/v1/advisors/${id}/reviews`, {
    data: { ratings: { academic: 2, funding: 3, relationship: 3, prospects: 2, overall: 2 }, tags: [], text, relation: '了解' },
    headers: { 'x-forwarded-for': '10.9.9.9' },
  });
  expect(posted.status()).toBe(201);
  const rid = (await posted.json()).review.id as string;

  await page.goto(`/advisor/${id}`);
  await page.locator(`#review-${rid}`).getByTestId('report-button').click();
  await expect(page.getByTestId('review-notice')).toContainText('已举报');
  await expect(page.locator(`#review-${rid}`)).toContainText(text);

  // The admin: 401 without the token, 403 with a wrong one.
  expect((await request.get('/admin')).status()).toBe(401);
  expect((await request.get('/admin?token=wrong')).status()).toBe(403);
  await page.goto('/admin?token=e2e-admin');
  const row = page.locator(`[data-testid=admin-review][data-review-id="${rid}"]`).first();
  await expect(row).toContainText('举报 1 次');
  await row.getByRole('button', { name: '隐藏' }).click();
  await expect(page.locator(`[data-testid=admin-review][data-review-id="${rid}"]`).first()).toHaveAttribute('data-status', 'hidden');

  await page.goto(`/advisor/${id}`);
  await expect(page.locator(`#review-${rid}`)).toHaveCount(0);
});

test.describe('the admin page, without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the bulk form hides the checked reviews and the log shows who and why, as text', async ({ page, request }) => {
    const id = await advisorId(request, 3);
    const text = '这条评价会被批量隐藏：组会很少，经费一般，毕业去向普通，老师很忙。';
    const posted = await request.post(`/api/v1/advisors/${id}/reviews`, {
      data: { ratings: { academic: 2, funding: 3, relationship: 3, prospects: 2, overall: 2 }, tags: [], text, relation: '了解' },
      headers: { 'x-forwarded-for': '10.9.9.11' },
    });
    expect(posted.status()).toBe(201);
    const rid = (await posted.json()).review.id as string;

    await page.goto('/admin?token=e2e-admin');
    await expect(page).toHaveURL(/\/admin$/);
    await page.locator(`[data-testid=admin-review][data-review-id="${rid}"] input[name=ids]`).first().check();
    await page.locator('#bulk-form input[name=by]').fill('小李<b>');
    await page.locator('#bulk-form input[name=reason]').fill('批量<i>处理</i>');
    await page.getByRole('button', { name: '隐藏所选' }).click();
    await expect(page.locator(`[data-testid=admin-review][data-review-id="${rid}"]`).first()).toHaveAttribute('data-status', 'hidden');
    const entry = page.getByTestId('audit-entry').first();
    await expect(entry).toContainText('批量<i>处理</i>');
    await expect(entry).toContainText('小李<b>');
  });
});

test('the admin page hydrates without errors and reads the next page through its server function', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/admin?token=e2e-admin');
  // Hydrated: before it the input serves the page's script (early.js).
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  await expect(page.getByTestId('agent-input')).toBeEnabled();
  // A link the router takes, as 下一页 is once hydrated (a cursor past
  // every reported review): the lists come from /admin/lists, with the
  // cookie (Path=/admin).
  const lists = page.waitForResponse((r) => new URL(r.url()).pathname === '/admin/lists');
  await page.evaluate(() => {
    const a = document.createElement('a');
    a.href = '/admin?after=1~0000~1';
    a.id = 'next-page';
    a.textContent = '下一页';
    document.querySelector('h1')!.after(a);
  });
  await page.locator('#next-page').click();
  expect((await lists).status()).toBe(200);
  await expect(page).toHaveURL(/after=/);
  await expect(page.getByRole('heading', { name: '被举报的评价' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the writer edits and deletes a review from the browser that holds its token', async ({ page, request }) => {
  const id = await advisorId(request, 2);
  const text = '这条评价会被作者删掉：组会每周一次，经费够用，老师态度很好。';
  const posted = await request.post(`/api/v1/advisors/${id}/reviews`, {
    data: { ratings: { academic: 4, funding: 4, relationship: 4, prospects: 4, overall: 4 }, tags: [], text, relation: '在读' },
    headers: { 'x-forwarded-for': '10.9.9.10' },
  });
  const body = await posted.json();
  const rid = body.review.id as string;

  // Another browser (no token) sees no delete button.
  await page.goto(`/advisor/${id}`);
  // Hydrated: before it the input serves the page's script (early.js).
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  await expect(page.getByTestId('agent-input')).toBeEnabled();
  await expect(page.locator(`#review-${rid}`).getByTestId('delete-mine')).toHaveCount(0);

  // The writer's browser keeps the token.
  await page.evaluate(([r, t]) => localStorage.setItem(`advisor-review-token:${r}`, t), [rid, body.edit_token]);
  await page.reload();
  // Hydrated: before it the input serves the page's script (early.js).
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  await expect(page.getByTestId('agent-input')).toBeEnabled();

  // 修改: the form filled with the review; saved through the same rules.
  await page.locator(`#review-${rid}`).getByTestId('edit-mine').click();
  await expect(page.locator('#review-text')).toHaveValue(text);
  const changed = '作者改过的评价：组会每周一次，经费够用，老师态度很好，毕业顺利。';
  await page.locator('#review-text').fill(changed);
  await page.getByTestId('review-submit').click();
  await expect(page).toHaveURL(new RegExp(`/advisor/${id}\\?edited=${rid}#review-${rid}$`));
  await expect(page.locator(`#review-${rid}`)).toContainText(changed);
  // Hydrated: before it the input serves the page's script (early.js).
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  await expect(page.getByTestId('agent-input')).toBeEnabled();

  await page.locator(`#review-${rid}`).getByTestId('delete-mine').click();
  await expect(page.locator(`#review-${rid}`)).toHaveCount(0);
});
