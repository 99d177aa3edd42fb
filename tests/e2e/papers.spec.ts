import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { loginAs, watchErrors } from './portal-helpers';

const TITLE = `组卷测试 ${Date.now().toString(36)}`;

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: new RegExp(`(^|\\s)${option.replace(/[()]/g, '\\$&')}$`) }).click();
}

test('a teacher composes a paper, assigns it, finds it in the homework list and prints and downloads it', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  await loginAs(page, 'teacher');

  // Compose from the demo bank.
  await page.goto('/edit');
  await page.getByRole('button', { name: '加入试题篮：第 1 题' }).click();
  await page.getByRole('button', { name: '加入试题篮：第 2 题' }).click();
  await page.getByRole('button', { name: '加入试题篮：第 3 题' }).click();
  const basket = page.getByRole('complementary', { name: '试题篮' });
  await expect(basket.getByText(/共 3 题/)).toBeVisible();
  const before = Number(await basket.getByTestId('basket-total').textContent());
  const score = basket.getByRole('spinbutton', { name: '第 1 题分值' });
  const old = Number(await score.inputValue());
  await score.fill('10');
  await score.blur();
  await expect(basket.getByTestId('basket-total')).toHaveText(String(before - old + 10));

  // A refresh keeps the basket.
  await page.reload();
  await expect(basket.getByText(/共 3 题/)).toBeVisible();

  // Save and assign to a class.
  await basket.getByRole('button', { name: '保存试卷' }).click();
  const dialog = page.getByRole('dialog', { name: '保存试卷' });
  await dialog.getByRole('textbox', { name: '试卷标题' }).fill(TITLE);
  await dialog.getByRole('button', { name: '保存' }).click();
  const assign = page.getByRole('dialog', { name: '布置作业' });
  await expect(assign).toBeVisible();
  await choose(page, '布置班级', '初一(1)班');
  await assign.getByText(/已保存/).click();
  await assign.getByRole('button', { name: '布置作业' }).click();
  await expect(page).toHaveURL(/\/paperlist$/);

  // It is the newest homework of the list.
  const row = page.getByRole('row').filter({ hasText: TITLE });
  await expect(row).toBeVisible();
  await expect(row.getByText('初一(1)班')).toBeVisible();

  // Word download.
  const [docx] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: '下载 Word' }).click()]);
  expect(docx.suggestedFilename()).toBe(`${TITLE}.docx`);
  expect((await readFile(await docx.path())).subarray(0, 2).toString()).toBe('PK');

  // Answer sheet PDF, one per student of the class.
  await expect(row.getByRole('button', { name: '下载 Word' })).toBeEnabled();
  const sheet = page.getByRole('dialog', { name: '打印答题卡' });
  await expect(async () => {
    await row.getByRole('button', { name: '打印答题卡' }).click();
    await expect(sheet).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await sheet.getByRole('radio', { name: '每位学生一张' }).check();
  const [pdf] = await Promise.all([page.waitForEvent('download'), sheet.getByRole('button', { name: '下载 PDF' }).click()]);
  expect(pdf.suggestedFilename()).toBe(`${TITLE}-答题卡.pdf`);
  expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');
  // Named in Chinese (Semi labels it "close"; the app renames it).
  await sheet.getByRole('button', { name: '关闭' }).click();

  // The paper as printed, then its answers.
  await row.getByRole('button', { name: '打印试卷' }).click();
  await expect(page).toHaveURL(/\/printing\?paperId=\d+$/);
  const paperId = new URL(page.url()).searchParams.get('paperId');
  const paper = page.getByRole('article', { name: 'A4 纸张' });
  await expect(paper.getByRole('heading', { name: TITLE })).toBeVisible();
  await expect(paper.getByText('（10 分）')).toBeVisible();
  await expect(page.getByRole('button', { name: /打印/ })).toBeEnabled();

  await page.goto(`/printanswer?paperId=${paperId}`);
  await expect(page.getByRole('heading', { name: `${TITLE}（参考答案与解析）` })).toBeVisible();
  await expect(page.getByText('【答案】').first()).toBeVisible();

  await page.goto('/printgrade');
  await expect(page.getByRole('heading', { name: '初一(1)班 成绩单' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '总分' })).toBeVisible();
  await expect(page.getByRole('link', { name: '作业列表' })).toHaveCount(0);

  await page.goto('/printcode');
  await expect(page.getByRole('img', { name: /的二维码$/ }).first()).toBeVisible();

  await page.goto('/printBarcode');
  await expect(page.getByRole('img', { name: /^CODE128 条码 \d+$/ }).first()).toBeVisible();
  await choose(page, '条码格式', 'EAN13');
  await expect(page.getByText(/不符合 EAN13 格式/)).toBeVisible();

  for (const path of ['/pringtingtest', '/printgradetest']) {
    await page.goto(path);
    await expect(page.getByRole('img', { name: '横向刻度尺 100 毫米' })).toBeVisible();
    await expect(page.getByRole('img', { name: '正方形 50×50 毫米' })).toBeVisible();
    await expect(page.getByText('校准步骤')).toBeVisible();
  }

  // 我的试卷 finds the saved paper by its title.
  await page.goto('/paperlist?tab=papers');
  await page.getByRole('textbox', { name: '试卷名称' }).fill(TITLE);
  await page.getByRole('button', { name: '搜索' }).click();
  const saved = page.getByRole('row').filter({ hasText: TITLE });
  await expect(saved).toBeVisible();
  await expect(saved.getByText('已布置 1 次')).toBeVisible();

  expect(errors.filter((e) => !/favicon/.test(e))).toEqual([]);
});

test('a teacher without a school sees how to join one instead of error messages', async ({ page }) => {
  await loginAs(page, 'newbie');
  await expect(page.getByText('您还没有加入学校')).toBeVisible();
  await expect(page.getByRole('button', { name: '创建学校' })).toBeVisible();
  await page.goto('/edit');
  await expect(page.getByText('您还没有加入学校')).toBeVisible();
  await expect(page.getByText('很抱歉，您暂无该操作权限')).toHaveCount(0);
});
