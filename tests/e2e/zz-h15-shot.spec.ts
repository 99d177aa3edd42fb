import { expect, test } from '@playwright/test';
import { loginAs } from './portal-helpers';

type Options = { subjects: { id: number; name: string }[]; classes: { id: number; schoolYearId: number }[] };

test('set maker screenshots', async ({ page }) => {
  test.setTimeout(600_000);
  await loginAs(page, 'teacher');
  const options = (await (await page.request.get('/api/rehearse/options')).json()) as { data: Options };
  const math = options.data.subjects.find((s) => s.name === '数学')!;
  const klass = options.data.classes[2] ?? options.data.classes[0]!;
  await page.goto(`/rehearse?subjectId=${math.id}&schoolYearId=${klass.schoolYearId}&classId=${klass.id}`);
  await expect(page.getByText('得分率').first()).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: '生成错题重练' }).click();
  const maker = page.locator('.semi-sidesheet');
  await maker.getByRole('button', { name: '预览' }).click();
  await expect(maker.getByText(/^理由：/).first()).toBeVisible({ timeout: 60_000 });
  await maker.getByPlaceholder('重练作业的标题').fill('截图用重练');
  const pdf = page.waitForEvent('download', { timeout: 300_000 });
  await maker.getByRole('button', { name: '生成并打印' }).click();
  await pdf;
  await expect(maker.getByRole('button', { name: /^下载 .* 的 PDF$/ }).first()).toBeVisible();
  await page.screenshot({ path: '/tmp/h-rehearse15/maker-1440.png' });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/h-rehearse15/maker-375.png' });
  await maker.getByRole('list', { name: '学生列表' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/h-rehearse15/maker-375-list.png' });
});
