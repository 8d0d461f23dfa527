import { test, expect, Page } from '@playwright/test';
import { recordSpeech, hydrated, spoken, isWasm } from './helpers';

// On a phone network the WASM arrives seconds after the page. The panel's
// input works from the first paint (app/src/components/agent_panel/early.js):
// the reply is shown and spoken before the WASM is there, and what the reply
// does to the page is done by the app once it has hydrated.
test.beforeEach(async ({ page }) => recordSpeech(page));

// Holds the WASM back until the returned function is called.
async function holdWasm(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(isWasm, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('a message typed before the WASM arrives is answered, then the app takes it over', async ({ page }) => {
  const release = await holdWasm(page);
  await page.goto('/');
  await expect(page.getByTestId('agent-input')).toBeEnabled();
  await expect(page.locator('html')).not.toHaveAttribute('data-hydrated', '');

  await page.getByTestId('agent-input').fill('我想考北京大学计算机系');
  await page.getByTestId('agent-input').press('Enter');
  const early = page.getByTestId('agent-early');
  await expect(early.locator('[data-role=user]')).toHaveText('我想考北京大学计算机系');
  await expect(early.locator('[data-role=assistant]')).toContainText('北京大学');
  await expect.poll(async () => (await spoken(page)).length).toBe(1);
  expect((await spoken(page))[0]).toMatch(/^好的，北京大学计算机系。/);
  // Still the home page: what the reply does waits for the app.
  await expect(page).toHaveURL(/\/$/);

  release();
  // The app shows the stored conversation instead of the script's lines,
  // goes where the reply leads, and says nothing twice.
  await expect(page).toHaveURL(/\/ranking\?school=/);
  await hydrated(page, 'ranking');
  await expect(early.locator('*')).toHaveCount(0);
  const messages = page.getByTestId('agent-messages').getByTestId('agent-message');
  await expect(messages).toHaveCount(2);
  await expect(messages.first()).toHaveText('我想考北京大学计算机系');
  await expect(page.locator('.advisor-row').first()).toContainText('张三');
  expect((await spoken(page)).length).toBe(1);

  // The next message is the app's own, in the same session.
  await page.getByTestId('agent-input').fill('第一个导师怎么样？');
  await page.getByTestId('agent-input').press('Enter');
  await expect.poll(async () => (await spoken(page)).length).toBe(2);
  expect((await spoken(page))[1]).toMatch(/^张三/);
});

test('a message sent before the WASM while the server is unreachable says so', async ({ page }) => {
  // The WASM is on its way (held), the chat request fails.
  await page.route(isWasm, () => new Promise(() => {}));
  await page.route('**/api/v1/chat', (route) => route.abort('connectionfailed'));
  await page.goto('/');
  await page.getByTestId('agent-input').fill('你好');
  await page.getByTestId('agent-input').press('Enter');
  await expect(page.getByTestId('agent-early').locator('[data-role=system]')).toContainText('网络连接失败');
});

test('what is typed before the WASM arrives stays in the box when the app takes over', async ({ page }) => {
  const release = await holdWasm(page);
  await page.goto('/');
  await page.getByTestId('agent-input').fill('北京大学');
  release();
  await hydrated(page, 'home');
  await expect(page.getByTestId('agent-input')).toHaveValue('北京大学');
  await page.getByTestId('agent-input').press('End');
  await page.getByTestId('agent-input').pressSequentially('计算机系');
  await page.getByTestId('agent-input').press('Enter');
  await expect(page).toHaveURL(/\/ranking\?school=/);
});
