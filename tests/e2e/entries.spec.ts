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

test('the portal’s scripts and styles, and API answers over 1 KB, arrive compressed', async ({ page }) => {
  const assets: { path: string; encoding: string; length: number }[] = [];
  page.on('response', async (response) => {
    const { pathname } = new URL(response.url());
    if (!/^\/assets\/.+\.(?:m?js|css)$/.test(pathname)) return;
    const headers = await response.allHeaders();
    assets.push({ path: pathname, encoding: headers['content-encoding'] ?? 'none', length: (await response.body()).length });
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(assets.length).toBeGreaterThan(3);
  // Files under 1 KB have no compressed copy; everything else comes as Brotli.
  for (const asset of assets) expect(asset.length < 1024 ? 'small' : asset.encoding, asset.path).toMatch(/^(br|small)$/);
  const captcha = await page.evaluate(async () => {
    const response = await fetch('/api/captcha');
    return { encoding: response.headers.get('content-encoding'), length: (await response.text()).length };
  });
  expect(captcha.length).toBeGreaterThan(1024);
  expect(captcha.encoding).toBe('br');
});
