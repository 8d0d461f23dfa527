import { test, expect } from '@playwright/test';
import { recordSpeech, hydrated, spoken, lastSpoken, send } from './helpers';

test.beforeEach(async ({ page }) => recordSpeech(page));

test('the seed conversation typed into the panel drives the pages and is spoken', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');

  await send(page, '我想考北京大学计算机系');
  await expect(page).toHaveURL(/\/ranking\?school=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('北京大学 · 计算机科学与技术 导师排行');
  await expect(page.locator('.advisor-row').first()).toContainText('张三');
  expect(await lastSpoken(page)).toMatch(/^好的，北京大学计算机系。/);

  await send(page, '我想做机器学习，希望导师温和一点');
  const zhang = page.locator('.advisor-row.recommended', { hasText: '张三' });
  await expect(zhang).toBeVisible();
  await expect(zhang.locator('.recommend-reasons')).toContainText('主要研究机器学习');
  expect(await lastSpoken(page)).toContain('张三');

  await send(page, '第一个导师怎么样？');
  expect(await lastSpoken(page)).toMatch(/^张三教授主要研究机器学习/);

  await send(page, '我想看看他的详细信息');
  await expect(page).toHaveURL(/\/advisor\/\d+/);
  await expect(page.locator('.advisor-detail h1')).toContainText('张三');
  expect(await lastSpoken(page)).toBe('好的，这是张三教授的详细信息。');
  await hydrated(page, 'detail');

  await send(page, '他的学生评价怎么样？');
  expect(await lastSpoken(page)).toMatch(/^张三的学生评价/);
  await expect(page.locator('#reviews .review').first()).toBeVisible();

  // Every message of the conversation is in the panel.
  await expect(page.getByTestId('agent-message')).toHaveCount(10);
  await expect(page.locator('[data-testid=agent-message][data-role=user]')).toHaveCount(5);
});

test('a chip click fills the form and shows the ranking', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  await send(page, '我想考北京大学');
  expect(await lastSpoken(page)).toBe('好的，北京大学。你想考哪个专业呢？');
  const chip = page.getByTestId('agent-chip').filter({ hasText: '计算机科学与技术' });
  await expect(chip).toBeVisible();
  const before = (await spoken(page)).length;
  await chip.click();
  await expect.poll(async () => (await spoken(page)).length).toBeGreaterThan(before);
  await expect(page).toHaveURL(/\/ranking\?school=/);
  await expect(page.locator('.advisor-row').first()).toContainText('张三');
  // The next question's chips replace the old ones.
  await expect(page.getByTestId('agent-chip-skip')).toBeVisible();
});

test('a turn is streamed, and what is spoken is what is shown', async ({ page }) => {
  // Every POST to a chat endpoint: the `chat` server function lives under
  // /api/chat…, the stream at /api/v1/chat/stream.
  const chatPosts: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && (path.startsWith('/api/chat') || path.startsWith('/api/v1/chat'))) {
      chatPosts.push(path);
    }
  });
  await page.goto('/');
  await hydrated(page, 'home');
  const before = (await spoken(page)).length;
  const streamed = page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/chat/stream',
  );
  await send(page, '我想考北京大学');
  const request = await streamed;
  expect(request.postDataJSON()).toMatchObject({ message: '我想考北京大学' });
  const response = await request.response();
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-type']).toContain('text/event-stream');
  expect(chatPosts).toEqual(['/api/v1/chat/stream']);

  // The embedded planner sends the reply as one voice event: one utterance,
  // the whole reply, which is also the assistant message's final text.
  const said = (await spoken(page)).slice(before);
  expect(said).toEqual(['好的，北京大学。你想考哪个专业呢？']);
  const assistant = page.locator('[data-testid=agent-message][data-role=assistant]');
  await expect(assistant).toHaveCount(1);
  await expect(assistant).toHaveText(said.join(''));
});

test('"第一个导师怎么样" with no list asks for school and major first', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  await send(page, '第一个导师怎么样？');
  expect(await lastSpoken(page)).toBe('目前还没有导师列表，请先告诉我你的学校和专业。');
});

test('a reload restores the conversation; 新对话 starts a new one', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  await send(page, '我想考北京大学');
  await expect(page.getByTestId('agent-message')).toHaveCount(2);
  await page.reload();
  await hydrated(page, 'home');
  await expect(page.getByTestId('agent-message')).toHaveCount(2);
  await expect(page.getByTestId('agent-chip').first()).toBeVisible();
  await page.getByTestId('agent-new').click();
  await expect(page.getByTestId('agent-message')).toHaveCount(0);
});

test('muting stops speech', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  await page.getByTestId('agent-mute').click();
  const before = (await spoken(page)).length;
  await page.getByTestId('agent-input').fill('你好');
  await page.getByTestId('agent-input').press('Enter');
  await expect(page.getByTestId('agent-message')).toHaveCount(2);
  expect((await spoken(page)).length).toBe(before);
});

test('a comparison asked by text opens /compare with the radar chart', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  await send(page, '我想考北京大学计算机系');
  await expect(page).toHaveURL(/\/ranking\?school=/);
  await send(page, '对比一下第一个和第二个');
  await expect(page).toHaveURL(/\/compare\?ids=\d+,\d+$/);
  await expect(page.getByTestId('radar-chart')).toBeVisible();
  await expect(page.getByTestId('radar-series')).toHaveCount(2);
  const said = await lastSpoken(page);
  expect(said).toContain('张三');
  expect(said).toContain('更');
  await expect(page.locator('#page-context')).toHaveAttribute('data-current-page', 'compare');
});

test('the persona toggle changes who answers, and nothing is forgotten', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  await send(page, '我想考北京大学计算机系');
  await expect(page.getByTestId('agent-persona')).toHaveText('择导分析师');

  await page.getByTestId('agent-persona-casual').click();
  const system = page.locator('[data-testid=agent-message][data-role=system]');
  await expect(system.last()).toHaveText('[系统] 已从分析模式切换到闲聊模式');
  await expect(page.getByTestId('agent-persona')).toContainText('小暖');
  await expect(page.getByTestId('agent-persona-casual')).toHaveAttribute('aria-pressed', 'true');

  // A keyword of the data side does not override the choice made by hand.
  await send(page, '今天复习好累，看看数据也看不进去');
  await expect(page.getByTestId('agent-persona')).toContainText('小暖');
  await expect(page).toHaveURL(/\/ranking\?school=/);

  // Back by button: the form is still there, so "第一个" still works.
  await page.getByTestId('agent-persona-analysis').click();
  await expect(system.last()).toHaveText('[系统] 已从闲聊模式切换到分析模式');
  await send(page, '第一个导师怎么样？');
  expect(await lastSpoken(page)).toMatch(/^张三/);
  await expect(page.getByTestId('agent-form')).toContainText('北京大学');
});

test('asking about stress switches to the casual persona by itself', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  await send(page, '考研压力好大，好焦虑');
  await expect(page.getByTestId('agent-persona')).toContainText('小暖');
  const system = page.locator('[data-testid=agent-message][data-role=system]');
  await expect(system.last()).toHaveText('[系统] 已从分析模式切换到闲聊模式');
  await send(page, '帮我看看北京大学计算机系的排名');
  await expect(page.getByTestId('agent-persona')).toHaveText('择导分析师');
  await expect(page).toHaveURL(/\/ranking\?school=/);
});

test('on a slow network "第三个" right after the ranking opens means its third advisor', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  // From now on the pages' code and data come slowly (a phone on a weak
  // network); the agent's own turns do not.
  await page.route(/\/(pkg\/|api\/(?!v1\/chat))/, async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  const sent: { current_page: string; visible_advisors: unknown[] }[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/chat') && r.method() === 'POST') sent.push(r.postDataJSON().page_context);
  });
  await send(page, '我想考北京大学计算机系，推荐几个导师');
  await send(page, '第三个导师的详细信息');
  // The ranking page had not loaded: the panel put what the reply carried
  // into the page context at once.
  expect(sent[1].current_page).toBe('ranking');
  await expect(page).toHaveURL(/\/advisor\/\d+$/);
  await page.unroute(/\/(pkg\/|api\/(?!v1\/chat))/);
  await hydrated(page, 'detail');
  const opened = page.url().split('/').pop();
  // The ranking the recommendation opened, as the site shows it.
  const ranking = await page.request.get(
    '/api/v1/advisors?school=%E5%8C%97%E4%BA%AC%E5%A4%A7%E5%AD%A6&major=%E8%AE%A1%E7%AE%97%E6%9C%BA%E7%A7%91%E5%AD%A6%E4%B8%8E%E6%8A%80%E6%9C%AF',
  );
  const body = await ranking.json();
  expect(String(body.advisors[2].id)).toBe(opened);
});

test('a review written with the coach is published, and a reload resumes the draft', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  await send(page, '我想考北京大学计算机系');
  await send(page, '第三个导师的详细信息');
  await expect(page).toHaveURL(/\/advisor\/\d+$/);
  await hydrated(page, 'detail');
  const advisorUrl = page.url();

  await send(page, '我想评价他');
  expect(await lastSpoken(page)).toContain('评价');
  await send(page, '我在他组里读研，学术水平很高，每周组会都会认真改论文');
  expect(await lastSpoken(page)).toContain('经费');

  // Reload in the middle: the conversation and the draft are still there.
  await page.reload();
  await hydrated(page, 'detail');
  await send(page, '经费很充足，每月补助三千，服务器随便用');
  expect(await lastSpoken(page)).toMatch(/关系|对学生/);
  await send(page, '老师很耐心，脾气很好');
  await send(page, '毕业的师兄都去了大厂，推荐信也给力');
  expect(await lastSpoken(page)).toMatch(/^整理好了/);

  const confirm = page.getByTestId('agent-chip').filter({ hasText: '确认发布' });
  await expect(confirm).toBeVisible();
  const before = (await spoken(page)).length;
  await confirm.click();
  await expect.poll(async () => (await spoken(page)).length).toBeGreaterThan(before);
  expect(await lastSpoken(page)).toMatch(/^已发布/);
  await expect(page).toHaveURL(/\/advisor\/\d+\?posted=\d+#review-\d+$/);
  expect(page.url().startsWith(advisorUrl.split('#')[0])).toBeTruthy();
  const id = new URL(page.url()).searchParams.get('posted');
  await expect(page.locator(`#review-${id}`)).toContainText('每周组会');
  const token = await page.evaluate((rid) => localStorage.getItem(`advisor-review-token:${rid}`), id);
  expect(token).toBeTruthy();
});
