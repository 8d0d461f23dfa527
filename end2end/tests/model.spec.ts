import { test, expect } from '@playwright/test';
import { recordSpeech, hydrated, spoken, send } from './helpers';

// The site whose agent is a language model — the scripted OpenAI-compatible
// server of playwright.config.ts, answering from fixtures/model-script.json —
// driven through the panel like any student would.
const MODEL_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 1}`;

test.use({ baseURL: MODEL_URL });

/// Code's reply to "我想考北京大学计算机系" (prompts/embedded/replies.txt).
const CODE_FIRST = '好的，北京大学计算机系。导师已筛选好，你对研究方向或导师风格有偏好吗？';
test.beforeEach(async ({ page }) => recordSpeech(page));

/// What the turn spoke, utterance by utterance.
async function turn(page: import('@playwright/test').Page, text: string): Promise<string[]> {
  const before = (await spoken(page)).length;
  await send(page, text);
  return (await spoken(page)).slice(before);
}

test('the site says which planner answers', async ({ request }) => {
  const health = await (await request.get('/healthz')).json();
  expect(JSON.stringify(health)).toContain('model:scripted');
});

test('the whole example conversation through the panel with a model: code answers what it understood, the model only adds', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');

  // Code understood every seed turn: its words are spoken, while
  // the model was still asked and told what code understood.
  const first = CODE_FIRST;
  expect((await turn(page, '我想考北京大学计算机系')).join('')).toBe(first);
  await expect(page).toHaveURL(/\/ranking\?school=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('北京大学 · 计算机科学与技术 导师排行');
  await expect(page.locator('.advisor-row').first()).toContainText('张三');
  const assistant = page.locator('[data-testid=agent-message][data-role=assistant]');
  await expect(assistant.last()).toHaveText(first);

  expect((await turn(page, '我想做机器学习，希望导师温和一点')).join('')).toMatch(/^根据你的需求，我推荐张三教授/);
  await expect(page.locator('.advisor-row.recommended', { hasText: '张三' })).toBeVisible();

  expect((await turn(page, '第一个导师怎么样？')).join('')).toMatch(/^张三教授主要研究机器学习/);

  expect(await turn(page, '我想看看他的详细信息')).toEqual(['好的，这是张三教授的详细信息。']);
  await expect(page).toHaveURL(/\/advisor\/\d+/);
  await expect(page.locator('.advisor-detail h1')).toContainText('张三');
  await hydrated(page, 'detail');
});

test('a broken model reply is taken back and code answers instead; the session goes on', async ({ page }) => {
  await page.goto('/');
  await hydrated(page, 'home');
  const cancelledBefore = await page.evaluate(() => (window as unknown as { __cancelled: number }).__cancelled);
  const said = await turn(page, '坏掉的回复');
  // The model's first words were spoken, then code replaced them with its
  // own answer to the turn (a broken answer degrades to code).
  expect(said[0]).toBe('好的，马上。');
  const answer = said[said.length - 1];
  expect(answer).not.toMatch(/^抱歉/);
  expect(answer).toContain('哪个学校');
  const cancelledAfter = await page.evaluate(() => (window as unknown as { __cancelled: number }).__cancelled);
  expect(cancelledAfter).toBeGreaterThan(cancelledBefore);
  const assistant = page.locator('[data-testid=agent-message][data-role=assistant]');
  await expect(assistant.last()).toHaveText(answer);

  // A slow model on a turn code understood nothing of: when the budget
  // (2 s) runs out, code's own answer is spoken, as with no model at all
  // (a model never makes a turn worse), not an apology.
  const slow = await turn(page, '模型超时');
  expect(slow.join('')).not.toMatch(/^抱歉/);
  expect(slow.join('')).toContain('哪个学校');

  // Still usable.
  expect((await turn(page, '我想考北京大学计算机系')).join('')).toBe(CODE_FIRST);
  await expect(page).toHaveURL(/\/ranking\?school=/);
  await expect(page.getByTestId('agent-message')).toHaveCount(6);
});
