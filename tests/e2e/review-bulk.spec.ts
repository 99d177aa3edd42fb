/**
 * 异常处理 in bulk, in a real browser: a scanned feed leaves a blank page and a page of another homework
 * (and any doubtful marks) in the review queue; the teacher selects them all, discards the pages the
 * discard fits after a dialog that says how many and that no marks are lost, then confirms the rest
 * with the keyboard, and the queue is empty.
 */
import { expect, test, type Page } from '@playwright/test';
import { loginAs, watchErrors } from './portal-helpers';
import { accessToken, chooseSimulatedScanner, feed, feedEnded } from './scan-helpers';

// Its own homework: marking.spec scans and marks 相交线与平行线预习 and counts its pages.
const HOMEWORK_TITLE = '几何图形初步练习';
const PAGES = 10;

async function homeworkId(page: Page): Promise<number> {
  const token = await accessToken(page);
  const response = await page.request.get('/api/homework?page=1&pageSize=50', { headers: { authorization: `Bearer ${token}` } });
  const list = ((await response.json()) as { data: { list: { id: number; title: string }[] } }).data.list;
  const found = list.find((h) => h.title === HOMEWORK_TITLE);
  if (!found) throw new Error(`demo homework ${HOMEWORK_TITLE} not found`);
  return found.id;
}

test('the review queue is cleared in bulk: 全选, 批量作废 after a count, then 批量确认 by keyboard', async ({ page }) => {
  test.setTimeout(360_000);
  const errors = watchErrors(page);
  await loginAs(page, 'teacher');
  const id = await homeworkId(page);

  await page.goto(`/scan?homeworkId=${id}`);
  await chooseSimulatedScanner(page);
  await feed(page, 'button');
  await feedEnded(page);
  await expect(page.getByText(`排队中 0 · 上传中 0 · 已上传 ${PAGES} · 失败 0`)).toBeVisible({ timeout: 60_000 });

  await page.goto(`/correct?homeworkId=${id}&tab=review`);
  // The counter follows recognition over the (lazily loaded) socket.
  await expect(page.getByText(`识别完成 ${PAGES}/${PAGES}`)).toBeVisible({ timeout: 120_000 });
  const open = page.getByRole('list', { name: '待处理异常' }).getByRole('listitem');
  await expect(open.first()).toBeVisible({ timeout: 15_000 });
  const bar = page.getByRole('toolbar', { name: '批量处理' });
  const total = await open.count();

  await bar.getByRole('button', { name: `全选（${total}）` }).click();
  await expect(bar.getByText(`已选 ${total} 项`)).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: test.info().outputPath('review-bulk-1440.png') });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: test.info().outputPath('review-bulk-375.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  const discard = bar.getByRole('button', { name: /^批量作废（\d+）$/ });
  const discardable = Number(/（(\d+)）/.exec((await discard.textContent()) ?? '')?.[1]);
  expect(discardable).toBeGreaterThanOrEqual(2);
  await discard.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(`将作废以下 ${discardable} 项异常：`)).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByText('不会丢弃任何已给的分数。')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('review-bulk-dialog-1440.png') });
  await dialog.getByRole('button', { name: `作废 ${discardable} 项` }).click();
  await expect(dialog.getByText(`已作废 ${discardable} 项`)).toBeVisible({ timeout: 60_000 });
  await dialog.getByRole('button', { name: '关闭' }).last().click();
  await expect.poll(() => open.count(), { timeout: 15_000 }).toBe(total - discardable);

  const left = await open.count();
  if (left > 0) {
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    await page.keyboard.press('a');
    await expect(bar.getByText(`已选 ${left} 项`)).toBeVisible();
    await page.keyboard.press('c');
    await dialog.getByRole('button', { name: /^确认 \d+ 项$/ }).click();
    await expect(dialog.getByText(/^已确认 \d+ 项$/)).toBeVisible({ timeout: 60_000 });
    await dialog.getByRole('button', { name: '关闭' }).last().click();
  }
  await expect(open).toHaveCount(0, { timeout: 15_000 });
  expect(await page.getByRole('list', { name: '已处理异常' }).getByRole('listitem').count()).toBeGreaterThanOrEqual(total);
  expect(errors.filter((e) => !/127\.0\.0\.1:186\d\d/.test(e))).toEqual([]);
});
