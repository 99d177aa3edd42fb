import { expect, test } from '@playwright/test';
import { loginAs, watchErrors } from './portal-helpers';
import { accessToken, chooseSimulatedScanner, feed, feedEnded } from './scan-helpers';

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
  await expect(sheet.getByLabel('配对码')).toHaveValue(code);
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
  await teacher.getByRole('combobox', { name: '选择作业' }).click();
  const option = teacher.getByRole('option').nth(1);
  await expect(option).toBeVisible();
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
});
