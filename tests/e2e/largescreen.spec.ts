import { expect, test } from '@playwright/test';
import { loginAs, watchErrors } from './portal-helpers';
import { chooseSimulatedScanner, feed, feedEnded } from './scan-helpers';

test('a wall screen is paired from the portal and its counters move while a teacher scans', async ({ browser }) => {
  test.setTimeout(480_000);
  // The wall screen: kiosk mode, 1920x1080, no login.
  const screenContext = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const screen = await screenContext.newPage();
  const screenErrors = watchErrors(screen);
  await screen.goto('/largescreen.html?kiosk=1');
  const code = screen.getByTestId('pairing-code');
  await expect(code).toHaveText(/^\d{6}$/);
  await expect(screen.getByRole('img', { name: '配对二维码' })).toBeVisible();
  await screen.screenshot({ path: 'test-results/largescreen-pairing-1920.png' });
  const pairingCode = (await code.textContent())!.trim();

  // The school's creator types the code in the portal (the screen's QR code opens this address).
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await loginAs(admin, 'creator');
  await admin.goto(`/largescreen?pair=${pairingCode}`);
  // Semi's SideSheet names its dialog by nothing but its heading.
  const sheet = admin.getByRole('dialog').filter({ has: admin.getByRole('heading', { name: /大屏管理/ }) });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('textbox', { name: '配对码' })).toHaveValue(pairingCode);
  await sheet.getByRole('textbox', { name: '大屏名称' }).fill('走廊大屏');
  await sheet.getByRole('radio', { name: '全校' }).check();
  await sheet.getByRole('button', { name: '配对', exact: true }).click();
  await expect(admin.getByText('已配对：走廊大屏')).toBeVisible();
  await expect(sheet.getByText('走廊大屏', { exact: true })).toBeVisible();

  // The screen picks up its token by itself and shows the school's display, with no cursor.
  await expect(screen.getByRole('heading', { name: '示范中学 · 走廊大屏' })).toBeVisible({ timeout: 20_000 });
  await expect(screen.getByTestId('updated-at')).toHaveText(/^更新于 \d\d:\d\d:\d\d$/);
  expect(await screen.locator('main').evaluate((el) => getComputedStyle(el).cursor)).toBe('none');
  await expect(screen.getByRole('button')).toHaveCount(0);
  // Reloaded (a power cut): still paired.
  await screen.reload();
  await expect(screen.getByRole('heading', { name: '示范中学 · 走廊大屏' })).toBeVisible({ timeout: 20_000 });

  // A teacher scans with the simulated scanner in another browser.
  const teacherContext = await browser.newContext();
  const teacher = await teacherContext.newPage();
  await loginAs(teacher, 'teacher');
  await teacher.goto('/scan');
  // A homework of its own: the other suites scan theirs and count their pages.
  await teacher.getByRole('combobox', { name: '选择作业' }).click();
  await teacher.getByRole('option').filter({ hasText: 'Unit 1 课时练习（' }).click();
  await chooseSimulatedScanner(teacher);
  await feed(teacher, 'button');
  await feedEnded(teacher);

  // The screen jumps to today's pipeline and its counters move as the pages are stored and recognised.
  await expect(screen.getByTestId('stage-recognised').first()).toHaveText(/^[1-9]\d*\/\d+$/, { timeout: 90_000 });
  await expect(screen.getByTestId('stage-scanned').first()).toHaveText(/^[1-9]\d*$/, { timeout: 90_000 });
  const scannedBefore = Number(await screen.getByTestId('stage-scanned').first().textContent());
  await feed(teacher, 'button');
  await feedEnded(teacher);
  await expect
    .poll(async () => Number(await screen.getByTestId('stage-scanned').first().textContent()), { timeout: 90_000 })
    .toBeGreaterThan(scannedBefore);
  await screen.screenshot({ path: 'test-results/largescreen-pipeline-1920.png' });
  await screen.setViewportSize({ width: 1366, height: 768 });
  await screen.waitForTimeout(500);
  expect(await screen.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
  await screen.screenshot({ path: 'test-results/largescreen-pipeline-1366.png' });

  // Revoked from the portal: the screen is disconnected at once and shows a pairing code again.
  await sheet.getByRole('button', { name: '撤销' }).first().click();
  await sheet.getByRole('button', { name: /确认撤销/ }).click();
  await expect(admin.getByText('已撤销：走廊大屏')).toBeVisible();
  await expect(code).toHaveText(/^\d{6}$/, { timeout: 20_000 });
  expect(screenErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  await Promise.all([screenContext.close(), adminContext.close(), teacherContext.close()]);
});
