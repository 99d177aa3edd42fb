/**
 * Scan to scores in a real browser: the teacher scans a feed of the newest assigned homework with the
 * simulated scanner, watches recognition finish on /correct, clears the review queue (the feed carries a
 * blank page and a page of another homework), marks a subjective question with the keyboard on /write,
 * and finds the scores in 成绩 and in the exported 成绩表.
 */
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { loginAs, watchErrors } from './portal-helpers';
import { accessToken, chooseSimulatedScanner, feed, feedEnded } from './scan-helpers';

const HOMEWORK_TITLE = '相交线与平行线预习';
const PAGES = 10;

async function homeworkId(page: Page): Promise<number> {
  const token = await accessToken(page);
  const response = await page.request.get('/api/homework?page=1&pageSize=50', { headers: { authorization: `Bearer ${token}` } });
  const list = ((await response.json()) as { data: { list: { id: number; title: string }[] } }).data.list;
  const found = list.find((h) => h.title === HOMEWORK_TITLE);
  if (!found) throw new Error(`demo homework ${HOMEWORK_TITLE} not found`);
  return found.id;
}

/** Resolves every open review item: pages that are not this homework's are discarded, doubtful marks confirmed. */
async function clearReviewQueue(page: Page): Promise<string[]> {
  const handled: string[] = [];
  const open = page.getByRole('list', { name: '待处理异常' }).getByRole('listitem');
  await expect(open.first()).toBeVisible({ timeout: 15_000 });
  for (let round = 0; round < 40; round += 1) {
    const before = await open.count();
    if (before === 0) break;
    const item = open.first();
    const label = ((await item.getAttribute('aria-label')) ?? '').replace(/^异常：/, '');
    // Every student of the feed hands in whole sheets and recognition has finished: a missing page left
    // now offers only 确认 (score it 0), which would be wrong, so it fails here rather than in a retry.
    expect(label, 'a missing page is left in the review queue').not.toBe('缺少答题卡页');
    handled.push(label);
    const actions = item.getByRole('group', { name: '处理方式' });
    const confirm = actions.getByRole('button', { name: '确认', exact: true });
    if (/填涂/.test(label) && (await confirm.count()) > 0) await confirm.click();
    else {
      // 作废 asks first; the question may take a moment to open on a busy machine.
      const ok = page.getByRole('dialog').getByRole('button', { name: '作废' });
      await expect(async () => {
        if (!(await ok.isVisible())) await actions.getByRole('button', { name: '作废' }).click();
        await ok.click({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
    }
    // The item leaves the open list once the server has resolved it (others may resolve themselves, e.g. a
    // missing page that arrived, or those of a student whose only page was discarded).
    await expect.poll(() => open.count(), { timeout: 15_000 }).toBeLessThan(before);
  }
  await expect(open).toHaveCount(0, { timeout: 15_000 });
  return handled;
}

test('a scanned feed is recognised, its review queue cleared, a question marked by keyboard, and the scores shown', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const errors = watchErrors(page);
  await loginAs(page, 'teacher');
  const id = await homeworkId(page);

  // Scan one feed for the homework (作业列表's 扫描 opens /scan with it chosen).
  await page.goto(`/scan?homeworkId=${id}`);
  await expect(page.getByRole('combobox', { name: '选择作业' })).toContainText(HOMEWORK_TITLE);
  await chooseSimulatedScanner(page);
  await feed(page, 'button');
  await feedEnded(page);
  await expect(page.getByText(`排队中 0 · 上传中 0 · 已上传 ${PAGES} · 失败 0`)).toBeVisible({ timeout: 60_000 });

  // Recognition runs on the server while the teacher opens 阅卷.
  await page.goto(`/correct?homeworkId=${id}`);
  await expect(page.getByText(HOMEWORK_TITLE).first()).toBeVisible();
  await expect(page.getByText(`识别完成 ${PAGES}/${PAGES}`)).toBeVisible({ timeout: 120_000 });

  // The blank page and the other homework's page wait in 异常处理, never in the scores.
  await page.getByRole('tab', { name: /异常处理/ }).click();
  const handled = await clearReviewQueue(page);
  expect(handled).toContain('空白页');
  expect(handled).toContain('不是本次作业的答题卡');
  await expect(page.getByRole('list', { name: '已处理异常' }).getByRole('listitem')).not.toHaveCount(0);

  // Mark the first hand-marked question with the keyboard: a digit, Enter, next answer.
  await page.getByRole('tab', { name: '阅卷任务' }).click();
  const start = page.getByRole('button', { name: /^开始阅卷：第\d+题$/ }).first();
  await expect(start).toBeEnabled({ timeout: 15_000 });
  const questionNo = Number(/第(\d+)题/.exec((await start.getAttribute('aria-label')) ?? '')?.[1]);
  await start.click();
  await expect(page).toHaveURL(new RegExp(`/write\\?homeworkId=${id}&questionNo=${questionNo}`));
  let marked = 0;
  for (; marked < 20; marked += 1) {
    const finished = page.getByText('本题已全部阅完');
    const score = page.getByRole('status', { name: '当前分数' }).or(page.getByLabel('当前分数'));
    await expect(finished.or(score)).toBeVisible({ timeout: 15_000 });
    if (await finished.isVisible()) break;
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('2');
    await expect(score).toContainText('2');
    await page.keyboard.press('Enter');
    const history = page.getByRole('region', { name: '阅卷历史' });
    await expect(history.getByText(`已阅答卷（${marked + 1}）`)).toBeVisible({ timeout: 15_000 });
    await expect(history.getByRole('button', { name: /第 1 份\s*2 分/ })).toBeVisible();
  }
  expect(marked).toBeGreaterThan(0);
  await expect(page.getByText('本题已全部阅完')).toBeVisible();

  // The scores: every marked answer counts 2 points for that question; students not scanned have none.
  await page.goto(`/correct?homeworkId=${id}&tab=scores`);
  const table = page.getByRole('region', { name: '成绩表' });
  await expect(table.getByRole('row').nth(1)).toBeVisible({ timeout: 15_000 });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /导出 Excel/ }).click();
  const file = await (await download).path();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).map(String);
  const column = header.indexOf(`第${questionNo}题`);
  expect(column).toBeGreaterThan(0);
  const values: unknown[] = [];
  for (let row = 2; row <= sheet.rowCount; row += 1) values.push(sheet.getRow(row).getCell(column).value);
  expect(values.filter((v) => v === 2)).toHaveLength(marked);
  expect(values.filter((v) => v !== 2 && v !== null)).toEqual([]);

  expect(errors.filter((e) => !/127\.0\.0\.1:186\d\d/.test(e))).toEqual([]);
});
