import { expect, test } from '@playwright/test';
import { loginAs, watchErrors } from './portal-helpers';
import { accessToken, chooseSimulatedScanner, feed, feedEnded } from './scan-helpers';

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
  // And at 4K: no scroll either (the type scales with the viewport).
  await screen.setViewportSize({ width: 3840, height: 2160 });
  await screen.waitForTimeout(500);
  expect(
    await screen.evaluate(
      () =>
        document.documentElement.scrollHeight <= window.innerHeight && document.documentElement.scrollWidth <= window.innerWidth,
    ),
  ).toBe(true);
  await screen.screenshot({ path: 'test-results/largescreen-pipeline-3840.png' });

  // Revoked from the portal: the screen is disconnected at once and shows a pairing code again.
  await sheet.getByRole('button', { name: '撤销' }).first().click();
  await sheet.getByRole('button', { name: /确认撤销/ }).click();
  await expect(admin.getByText('已撤销：走廊大屏')).toBeVisible();
  await expect(code).toHaveText(/^\d{6}$/, { timeout: 20_000 });
  expect(screenErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  await Promise.all([screenContext.close(), adminContext.close(), teacherContext.close()]);
});

/**
 * A wall screen from a fresh start: it shows a pairing code, the creator pairs it from the portal (the
 * QR code's link), the teacher prints a homework's answer sheets and scans them with the simulated
 * scanner in another page, and the wall's counters move by themselves (已印, then the pages stored).
 */
test('pairs a wall screen, and its pipeline moves as sheets are printed and scanned', async ({ browser, page }) => {
  test.setTimeout(300_000);
  const wallContext = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'zh-CN' });
  const wall = await wallContext.newPage();
  const wallErrors = watchErrors(wall);
  await wall.goto('/largescreen.html?kiosk=1');
  const codeText = wall.getByTestId('pairing-code');
  await expect(codeText).toHaveText(/^\d{6}$/);
  const code = (await codeText.textContent())!;

  // The creator pairs it: the QR code's link opens 大屏管理 with the code filled in.
  await loginAs(page, 'creator');
  await page.goto(`/largescreen?pair=${code}`);
  const sheet = page.getByRole('region', { name: '配对新大屏' });
  // The first suite's pages may still be recognised on the server's cores: its first answers can be slow.
  await expect(sheet.getByLabel('配对码')).toHaveValue(code, { timeout: 30_000 });
  await sheet.getByLabel('大屏名称').fill('教学楼一层走廊');
  await sheet.getByRole('radio', { name: '全校' }).first().check();
  await sheet.getByRole('button', { name: '配对', exact: true }).click();
  await expect(page.getByText('已配对：教学楼一层走廊')).toBeVisible();

  // The wall takes its display token by itself and shows the school's display.
  await expect(wall.getByRole('heading', { level: 1 })).toContainText('教学楼一层走廊', { timeout: 30_000 });
  await expect(wall.getByRole('status').first()).toContainText('实时数据已连接');

  // The teacher prints the answer sheets of the homework they will scan (one per student of its class).
  const teacher = await browser.newPage();
  await loginAs(teacher, 'teacher');
  await teacher.getByRole('banner').getByRole('button', { name: '扫描' }).click();
  await expect(teacher).toHaveURL(/\/scan$/);
  // A homework of its own (the other suites scan and count theirs).
  await teacher.getByRole('combobox', { name: '选择作业' }).click();
  const option = teacher.getByRole('option').filter({ hasText: '有理数的乘除法答题卡练习（' });
  const title = (await option.textContent())!.trim();
  await option.click();
  const token = await accessToken(teacher);
  const auth = { authorization: `Bearer ${token}` };
  const listed = (await (await teacher.request.get('/api/homework?page=1&pageSize=50', { headers: auth })).json()).data as {
    list: { id: number; title: string; classes: { id: number; name: string }[] }[];
  };
  const homework = listed.list.find((h) => title.includes(h.title))!;
  expect(homework, title).toBeDefined();
  const klass = homework.classes[0]!;
  const roster = (await (await teacher.request.get(`/api/classes/${klass.id}/students`, { headers: auth })).json())
    .data as unknown[];
  const printed = await teacher.request.get(`/api/homework/${homework.id}/answer-sheet.pdf?mode=student&classId=${klass.id}`, {
    headers: auth,
  });
  expect(printed.status()).toBe(200);

  // The wall jumps to 今日作业进度 and shows the sheets printed, without a reload.
  const card = wall.getByRole('region', { name: homework.title });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('stage-printed')).toHaveText(String(roster.length));
  await expect(card.getByTestId(`printed-${klass.id}`)).toHaveText(String(roster.length));
  const storedBefore = Number((await card.getByTestId('stage-recognised').textContent())!.split('/')[1]);

  // Scanning with the simulated scanner in the teacher's page: the pages stored count moves on the wall.
  await chooseSimulatedScanner(teacher);
  await feed(teacher, 'button');
  await feedEnded(teacher);
  await expect
    .poll(async () => Number((await card.getByTestId('stage-recognised').textContent())!.split('/')[1]), { timeout: 90_000 })
    .toBeGreaterThan(storedBefore);
  await expect(wall.getByTestId('updated-at')).toHaveText(/^更新于 \d\d:\d\d:\d\d$/);
  await wall.screenshot({ path: '.test-output/largescreen-1920x1080.png' });
  expect(wallErrors).toEqual([]);
  await wallContext.close();

  // The teacher's projection in the portal (no top bar; the footer, kept on every page but /, is one line
  // inside the viewport): it fills the 1440x900 window with no document scroll.
  await page.goto('/largescreen');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('示范中学');
  await expect(page.getByTestId('updated-at')).toHaveText(/^更新于 \d\d:\d\d:\d\d$/, { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: '实时数据已连接' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('banner')).toHaveCount(0);
  const footer = page.getByRole('contentinfo').filter({ hasText: '版权所有' });
  await expect(footer.getByRole('link', { name: '关于我们' })).toBeInViewport();
  expect(
    await page.evaluate(() => ({
      height: document.documentElement.scrollHeight - window.innerHeight,
      width: document.documentElement.scrollWidth - window.innerWidth,
    })),
  ).toEqual({ height: 0, width: 0 });
  await page.screenshot({ path: '.test-output/largescreen-portal-1440x900.png' });
});

/**
 * A wall screen rebooted while the server cannot be reached: its service worker serves the page and its
 * assets from the cache, so the display comes up saying that updates have stopped, and it reconnects by
 * itself once the server answers again. The teacher portal is not under the worker.
 */
test('a wall screen rebooted with the server unreachable shows its display and the banner, then reconnects', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const wallContext = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'zh-CN' });
  const wall = await wallContext.newPage();
  await wall.goto('/largescreen.html?kiosk=1');
  const codeText = wall.getByTestId('pairing-code');
  await expect(codeText).toHaveText(/^\d{6}$/);
  await loginAs(page, 'creator');
  const paired = await page.request.post('/api/screens', {
    headers: { authorization: `Bearer ${await accessToken(page)}` },
    data: { code: (await codeText.textContent())!, name: '实验楼大屏', scopeKind: 'school', panels: ['pipeline'] },
  });
  expect(paired.status()).toBe(200);
  await expect(wall.getByRole('heading', { level: 1 })).toContainText('实验楼大屏', { timeout: 30_000 });
  await expect(wall.getByRole('status').first()).toContainText('实时数据已连接');
  // The worker controls the wall's page once it is active; the portal's pages are outside its scope.
  await wall.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();

  // The reboot, with the network down.
  await wallContext.setOffline(true);
  await wall.reload();
  // The last display, from the screen's own copy, under the banner.
  await expect(wall.getByRole('heading', { level: 1 })).toContainText('实验楼大屏', { timeout: 30_000 });
  await expect(wall.getByRole('alert')).toContainText(/实时更新已中断|正在连接实时更新|数据暂时无法更新/, { timeout: 30_000 });
  await wall.screenshot({ path: '.test-output/largescreen-offline-1920x1080.png' });

  // The network back: the display reconnects and loads its data by itself, no reload, no click.
  await wallContext.setOffline(false);
  await expect(wall.getByRole('heading', { level: 1 })).toContainText('实验楼大屏', { timeout: 60_000 });
  await expect(wall.getByRole('status').first()).toContainText('实时数据已连接', { timeout: 60_000 });
  await expect(wall.getByRole('alert')).toHaveCount(0, { timeout: 30_000 });
  await wallContext.close();
});
