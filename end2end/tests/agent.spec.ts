import { test, expect, Page } from '@playwright/test';

// The speech engine is replaced by a recorder before any page script runs, so
// the tests assert exactly what the panel spoke.
test.beforeEach(async ({ page }) => {
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
});

async function hydrated(page: Page, currentPage: string) {
  await expect(page.locator('#page-context')).toHaveAttribute('data-current-page', currentPage);
}

async function spoken(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken);
}

async function lastSpoken(page: Page): Promise<string> {
  const all = await spoken(page);
  return all[all.length - 1] ?? '';
}

async function send(page: Page, text: string) {
  const before = (await spoken(page)).length;
  await page.getByTestId('agent-input').fill(text);
  await page.getByTestId('agent-input').press('Enter');
  await expect.poll(async () => (await spoken(page)).length).toBeGreaterThan(before);
}

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
