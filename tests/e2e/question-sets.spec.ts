import { expect, test, type Page } from '@playwright/test';
import { loginAs, watchErrors } from './portal-helpers';

const NAME = `有理数精选 ${Date.now().toString(36)}`;

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: new RegExp(`(^|\\s)${option.replace(/[()]/g, '\\$&')}$`) }).click();
}

test('a teacher keeps picked questions as a 题目合集 shared to 校本资料; a colleague finds it and starts a paper from it', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  await loginAs(page, 'teacher');

  // Gather three questions of the bank in the 试题篮 and keep them as a set, shared.
  await page.goto('/edit');
  const basket = page.getByRole('complementary', { name: '试题篮' });
  if (await basket.getByRole('button', { name: '清空' }).isEnabled()) {
    await basket.getByRole('button', { name: '清空' }).click();
    await page.getByRole('button', { name: '确定' }).click();
  }
  for (const n of [1, 2, 3]) await page.getByRole('button', { name: `加入试题篮：第 ${n} 题` }).click();
  await expect(basket.getByText(/共 3 题/)).toBeVisible();
  await basket.getByRole('button', { name: '存为题目合集' }).click();
  const dialog = page.getByRole('dialog', { name: '存为题目合集' });
  await dialog.getByRole('textbox', { name: '合集名称' }).fill(NAME);
  await dialog.getByRole('textbox', { name: '合集说明' }).fill('第一章的易错题');
  await expect(dialog.getByRole('checkbox', { name: /共享到校本资料/ })).toBeChecked();
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText(`「${NAME}」已存为题目合集并共享到校本资料`)).toBeVisible();

  // The owner sees it under 我的题目合集, shared.
  await page.goto('/schoolmaterials?tab=sets');
  await page.getByRole('search', { name: '筛选题目合集' }).getByText('我的题目合集', { exact: true }).click();
  const mine = page.getByRole('row').filter({ hasText: NAME });
  await expect(mine.getByText('已共享')).toBeVisible();
  await expect(mine.getByRole('button', { name: `编辑：${NAME}` })).toBeVisible();

  // A colleague (李主任) finds it in 校本资料's 题目合集, with who made it; reads it only.
  const colleagueContext = await browser.newContext();
  const colleague = await colleagueContext.newPage();
  const colleagueErrors = watchErrors(colleague);
  await loginAs(colleague, 'director');
  await colleague.goto('/schoolmaterials');
  await colleague.getByRole('tab', { name: '题目合集' }).click();
  await expect(colleague).toHaveURL(/tab=sets/);
  const row = colleague.getByRole('row').filter({ hasText: NAME });
  await expect(row.getByText('王老师')).toBeVisible();
  await expect(row.getByText('3 题 · 第一章的易错题')).toBeVisible();
  await expect(row.getByRole('button', { name: `编辑：${NAME}` })).toHaveCount(0);

  // Opens it: the questions typeset as in the question bank.
  await row.getByRole('button', { name: `查看：${NAME}` }).click();
  const view = colleague.getByRole('dialog', { name: `题目合集：${NAME}` });
  await expect(view.getByLabel('第 3 题')).toBeVisible();

  // 用此合集组卷: a new paper on /edit with the set's questions, named after it.
  await view.getByRole('button', { name: '用此合集组卷' }).click();
  await expect(colleague).toHaveURL(/\/edit$/);
  const colleagueBasket = colleague.getByRole('complementary', { name: '试题篮' });
  await expect(colleagueBasket.getByText(/共 3 题/)).toBeVisible();
  await colleagueBasket.getByRole('button', { name: '保存试卷' }).click();
  const save = colleague.getByRole('dialog', { name: '保存试卷' });
  await expect(save.getByRole('textbox', { name: '试卷标题' })).toHaveValue(NAME);
  await choose(colleague, '学年', '2026级 (初一)');
  await save.getByRole('button', { name: '保存' }).click();
  await expect(colleague.getByRole('dialog', { name: '布置作业' })).toBeVisible();

  expect(colleagueErrors).toEqual([]);
  expect(errors).toEqual([]);
  await colleagueContext.close();
});
