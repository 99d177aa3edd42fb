import { expect, test, type Page } from '@playwright/test';

/** Collects console errors and uncaught page errors while a test runs. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

const ENTRIES = [
  { url: '/', title: '智慧作业', heading: '智慧作业' },
  { url: '/scanstation.html', title: '智慧作业 · 扫描站', heading: '智慧作业 · 扫描站' },
  { url: '/largescreen.html', title: '智慧作业 · 大屏', heading: '智慧作业 · 大屏' },
];

for (const entry of ENTRIES) {
  test(`${entry.url} loads with its Chinese title and no console error`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto(entry.url);
    await expect(page).toHaveTitle(entry.title);
    await expect(page.getByRole('heading', { name: entry.heading, exact: true }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });
}

test('the large screen connects to live updates', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/largescreen.html');
  await expect(page.getByRole('status')).toHaveText(/实时数据已连接/);
  expect(errors).toEqual([]);
});

test('a reload of a deep portal route returns the portal, and /api/health names the database', async ({ page, request }) => {
  const response = await page.goto('/analysis/class');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/智慧作业/);
  const health = await (await request.get('/api/health')).json();
  expect(health).toMatchObject({ code: 200, data: { status: 'ok', database: 'pglite' } });
});
