import { test, expect, APIRequestContext } from '@playwright/test';
import { hydrated, recordSpeech, send, lastSpoken } from './helpers';
import { serverBinary } from '../site-server';

// What students expect of a review site: the header's name search
// (pinyin, initials), 有用 on reviews, reviews sorted and filtered by links,
// and 是否推荐报考 — with JavaScript off and on.

// An advisor of 复旦大学 · 计算机科学与技术 (other specs write about 北大's and 清华's).
async function advisor(request: APIRequestContext, index: number): Promise<{ id: string; name: string }> {
  const r = await request.get(`/api/v1/advisors?school=${encodeURIComponent('复旦大学')}&major=${encodeURIComponent('计算机科学与技术')}`);
  expect(r.status()).toBe(200);
  const body = await r.json();
  expect(body.advisors.length).toBeGreaterThan(index);
  return { id: body.advisors[index].id as string, name: body.advisors[index].name as string };
}

// The index-th advisor there whose name no other advisor has (a search for
// it has one exact match), so the first suggestion is that advisor.
async function uniqueAdvisor(request: APIRequestContext, index: number): Promise<{ id: string; name: string }> {
  const unique: { id: string; name: string }[] = [];
  for (let i = 0; i < 7 && unique.length <= index; i++) {
    const a = await advisor(request, i);
    const found = await (await request.get(`/api/v1/search?q=${encodeURIComponent(a.name)}`)).json();
    const exact = found.advisors.filter((h: { matched: string }) => h.matched === 'exact');
    if (exact.length === 1 && exact[0].id === a.id) unique.push(a);
  }
  expect(unique.length).toBeGreaterThan(index);
  return unique[index];
}

async function postReview(
  request: APIRequestContext,
  id: string,
  client: string,
  text: string,
  relation: string,
  recommend: boolean | null,
): Promise<string> {
  const posted = await request.post(`/api/v1/advisors/${id}/reviews`, {
    data: {
      ratings: { academic: 4, funding: 4, relationship: 4, prospects: 4, overall: 4 },
      tags: ['负责'],
      text,
      relation,
      recommend,
    },
    headers: { 'x-forwarded-for': client },
  });
  expect(posted.status()).toBe(201);
  return (await posted.json()).review.id as string;
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the header search finds an advisor by name', async ({ page, request }) => {
    const a = await uniqueAdvisor(request, 0);
    await page.goto('/');
    await page.locator('#name-search-q').fill(a.name);
    await page.locator('#name-search-q').press('Enter');
    await expect(page).toHaveURL(/\/search\?q=/);
    const result = page.getByTestId('search-advisors').locator(`[data-advisor-id="${a.id}"]`);
    await expect(result).toContainText('复旦大学');
    await expect(result).toContainText('条评价');

    const found = await (await request.get(`/api/v1/search?q=${encodeURIComponent(a.name)}`)).json();
    expect(found.advisors[0].id).toBe(a.id);
    await page.goto('/search?q=qqqqxxxx');
    await expect(page.getByTestId('search-empty')).toContainText('没有找到');
    await page.goto(`/search?q=${encodeURIComponent(a.name)}`);
    await result.locator('a').first().click();
    await expect(page).toHaveURL(new RegExp(`/advisor/${a.id}$`));
  });

  test('有用 toggles by a plain form and the reviews sort and filter by links', async ({ page, request }) => {
    const a = await advisor(request, 1);
    const first = await postReview(request, a.id, '10.14.0.1', '组会每周一次，老师逐条改论文，经费充足，毕业去向很好。', '在读', true);
    await postReview(request, a.id, '10.14.0.2', '老师比较忙，组会不多，经费一般，但人很和气。', '了解', false);

    await page.goto(`/advisor/${a.id}`);
    await expect(page.getByTestId('recommend-share')).toContainText('推荐报考');
    const review = page.locator(`#review-${first}`);
    await expect(review.getByTestId('helpful-count')).toHaveText('0');
    await review.getByTestId('helpful-button').click();
    await expect(page).toHaveURL(new RegExp(`voted=${first}`));
    await expect(page.locator(`#review-${first}`).getByTestId('helpful-count')).toHaveText('1');
    await expect(page.locator(`#review-${first}`).getByTestId('helpful-button')).toHaveAttribute('aria-pressed', 'true');

    await page.getByTestId('review-controls').getByRole('link', { name: '最有用' }).click();
    await expect(page).toHaveURL(/sort=helpful/);
    await expect(page.locator('.review').first()).toHaveAttribute('data-review-id', first);
    await page.getByTestId('review-controls').getByRole('link', { name: '了解', exact: true }).click();
    await expect(page).toHaveURL(/relation=/);
    await expect(page.getByTestId('reviews-summary')).toContainText('关系：了解');
    for (const r of await page.locator('.review-relation').allTextContents()) {
      expect(r).toBe('了解');
    }
  });
});

test('the header box suggests advisors as pinyin is typed and Enter opens one', async ({ page, request }) => {
  const a = await uniqueAdvisor(request, 1);
  await page.goto('/');
  await hydrated(page, 'home');
  await page.locator('#name-search-q').pressSequentially(a.name, { delay: 30 });
  const list = page.getByTestId('name-suggestions');
  await expect(list).toBeVisible();
  await expect(list.locator('li').first()).toContainText(a.name);
  await page.locator('#name-search-q').press('ArrowDown');
  await expect(list.locator('li').first()).toHaveAttribute('aria-selected', 'true');
  await page.locator('#name-search-q').press('Enter');
  await expect(page).toHaveURL(new RegExp(`/advisor/${a.id}`));
  await expect(page.locator('#page-context')).toHaveAttribute('data-current-page', 'detail');
});

test('有用 counts in place once hydrated, and a second press takes it back', async ({ page, request }) => {
  const a = await advisor(request, 3);
  const rid = await postReview(request, a.id, '10.14.1.1', '老师学术很强，组会认真，经费充足，推荐报考这个组。', '已毕业', true);
  await page.goto(`/advisor/${a.id}`);
  await hydrated(page, 'detail');
  const review = page.locator(`#review-${rid}`);
  const button = review.getByTestId('helpful-button');
  await button.click();
  await expect(review.getByTestId('helpful-count')).toHaveText('1');
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(new RegExp(`/advisor/${a.id}$`));
  await button.click();
  await expect(review.getByTestId('helpful-count')).toHaveText('0');
  await expect(button).toHaveAttribute('aria-pressed', 'false');
});

test('the review form asks 是否推荐报考 and the answer counts on the page', async ({ page, request }) => {
  const a = await advisor(request, 4);
  await page.goto(`/advisor/${a.id}/review`);
  await hydrated(page, 'review');
  for (const field of ['academic', 'funding', 'relationship', 'prospects', 'overall']) {
    await page.locator(`input[name=${field}][value="5"]`).check();
  }
  await page.locator('input[name=relation][value="在读"]').check();
  await page.locator('input[name=recommend][value="yes"]').check();
  await page.locator('#review-text').fill('老师非常负责，每周组会都会认真讨论，经费充足，毕业去向也很好。');
  await page.getByTestId('review-submit').click();
  await expect(page).toHaveURL(new RegExp(`/advisor/${a.id}\\?posted=\\d+`));
  const share = (await (await request.get(`/api/v1/advisors/${a.id}`)).json()).recommend;
  expect(share.yes).toBeGreaterThanOrEqual(1);
  const percent = Math.round((share.yes * 100) / share.answered);
  await expect(page.getByTestId('recommend-share')).toContainText(`${percent}% 推荐报考（${share.answered} 人回答）`);
  const rid = new URL(page.url()).searchParams.get('posted');
  await expect(page.locator(`#review-${rid}`)).toContainText('推荐报考');
});

test('advisors imported from a CSV into the running site are found and ranked', async ({ page }) => {
  // `server import` on the database of the site under test, as an operator
  // would run it next to a running server.
  const { execFileSync } = await import('child_process');
  const fs = await import('fs');
  const path = await import('path');
  const tmp = path.resolve(__dirname, '..', '.tmp');
  const csv = path.join(tmp, 'import.csv');
  fs.writeFileSync(
    csv,
    'name,title,school,major,directions,bio\n' +
      '司马清川,副教授,南开,航空宇航科学与技术,飞行器设计、空气动力学,研究飞行器气动布局与优化设计。\n',
  );
  const out = execFileSync(serverBinary, ['import', csv, '--db', `sqlite://${tmp}/e2e.db`], {
    encoding: 'utf8',
    env: { ...process.env, RUST_LOG: 'warn' },
  });
  expect(out).toContain('新增 1 位');

  await page.goto(`/search?q=${encodeURIComponent('smqc')}`);
  await expect(page.getByTestId('search-advisors')).toContainText('司马清川');
  // The running site reloads its catalog within a couple of seconds.
  await expect(async () => {
    await page.goto(`/ranking?school=${encodeURIComponent('南开大学')}&major=${encodeURIComponent('航空宇航科学与技术')}`);
    await expect(page.locator('.advisor-list')).toContainText('司马清川', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
});

test('on the search page "第一个" is the first advisor found', async ({ page, request }) => {
  const a = await uniqueAdvisor(request, 2);
  await recordSpeech(page);
  await page.goto(`/search?q=${encodeURIComponent(a.name)}`);
  await hydrated(page, 'search');
  const context = JSON.parse((await page.locator('#page-context').getAttribute('data-json')) ?? '{}');
  expect(context.visible_advisors[0].id).toBe(a.id);
  await send(page, '第一个导师怎么样');
  expect(await lastSpoken(page)).toContain(a.name);
});
