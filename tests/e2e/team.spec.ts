import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, latestCaptchaText, loginAs, watchErrors } from './portal-helpers';

/** Registers a fresh account through the API (SMS code from the development outbox); answers its mobile. */
async function register(request: APIRequestContext, nickname: string): Promise<string> {
  const mobile = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  expect((await request.post('/api/sms/code', { data: { mobile, purpose: 'register' } })).ok()).toBe(true);
  const outbox = (await (await request.get('/api/dev/outbox')).json()) as { data: { sms: { mobile: string; code: string }[] } };
  const smsCode = outbox.data.sms.find((sms) => sms.mobile === mobile)!.code;
  const response = await request.post('/api/user/register', {
    data: { nickname, mobile, smsCode, password: DEMO_PASSWORD, password2: DEMO_PASSWORD },
  });
  expect(response.ok()).toBe(true);
  return mobile;
}

test('a newcomer sets up a school, invites a colleague who joins by the link and is made grade director', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const head = await register(page.request, '周校长');
  await loginAs(page, head);

  // No school yet: the account menu offers to create or join one.
  await page.getByRole('button', { name: '账号菜单' }).hover();
  await page.getByText('创建/加入学校').click();
  await expect(page).toHaveURL(/\/team\/group$/);
  await page.getByLabel('学校名称').fill('育才初级中学');
  await page.getByLabel('所在地区').fill('浙江省宁波市');
  await page.getByRole('button', { name: '创建学校' }).click();
  await expect(page).toHaveURL(/\/team\/details\?orgId=\d+&isCreator=true$/);
  await expect(page.getByRole('button', { name: '保存设置' })).toBeVisible();
  // Logged in without a school's own filing number, the footer shows the site's; then the school's.
  await expect(page.getByTestId('filing-number')).toHaveText('京ICP备2026000001号-1');
  await page.getByLabel('备案号（显示在页脚）').fill('浙ICP备2026123456号');
  await page.getByRole('button', { name: '保存设置' }).click();
  await expect(page.getByText('学校设置已保存')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('filing-number')).toHaveText('浙ICP备2026123456号');

  await page.getByRole('button', { name: '新建学年' }).click();
  const newYear = page.getByRole('dialog');
  await newYear.getByPlaceholder('例如：2027级').fill('2026级');
  await newYear.locator('input').nth(1).fill('2');
  await newYear.getByRole('button', { name: '创建学年' }).click();
  await expect(page.getByText('2班', { exact: true })).toBeVisible();

  await page.goto('/team/member');
  await page.getByRole('button', { name: '邀请老师' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '生成邀请' }).click();
  const link = (await page.getByTestId('invitation-link').textContent())!.trim();
  expect(link).toMatch(/\/invite\?token=/);
  await expect(page.getByTestId('invitation-code')).toHaveText(/^\d{6}$/);

  // The colleague opens the link in another browser, logged out, logs in and joins.
  const other = await browser.newContext({ locale: 'zh-CN' });
  const colleague = await other.newPage();
  const colleagueMobile = await register(colleague.request, '吴老师');
  await colleague.goto(link);
  await expect(colleague.getByText('育才初级中学')).toBeVisible();
  await colleague.getByRole('button', { name: '登录后加入' }).click();
  const box = colleague.getByRole('dialog');
  await expect(box.getByRole('img', { name: '图形验证码' })).toBeVisible();
  await box.getByLabel('用户名').fill(colleagueMobile);
  await box.getByLabel('密码', { exact: true }).fill(DEMO_PASSWORD);
  await box.getByLabel('图形验证码', { exact: true }).fill(await latestCaptchaText(colleague));
  await box.getByRole('button', { name: '登录', exact: true }).click();
  await colleague.getByRole('button', { name: '加入学校' }).click();
  await expect(colleague).toHaveURL(/\/team\/group$/);
  await expect(colleague.getByText('育才初级中学').first()).toBeVisible();

  // The used invitation no longer works.
  await colleague.goto(link);
  await expect(colleague.getByTestId('invite-status')).toHaveText('邀请的使用次数已用完，请联系学校管理员重新邀请');

  // Before: the colleague has no data centre menu.
  await colleague.goto('/paperlist');
  await expect(colleague.getByText('作业列表', { exact: true }).first()).toBeVisible();
  await expect(colleague.getByText('数据中心', { exact: true })).toHaveCount(0);

  // The creator makes the colleague grade director of 2026级.
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: '吴老师' });
  await row.getByRole('button', { name: '编辑' }).click();
  const edit = page.getByRole('dialog', { name: '编辑 吴老师' });
  await edit.locator('.semi-form-field').filter({ hasText: '年级主任' }).locator('.semi-select').click();
  await page.getByRole('option', { name: '2026级' }).click();
  await edit.getByRole('button', { name: '保存' }).click();
  await expect(page.getByRole('row').filter({ hasText: '吴老师' })).toContainText('2026级年级主任');

  // After a reload the colleague sees the data centre menu.
  await colleague.reload();
  await expect(colleague.getByText('数据中心', { exact: true })).toBeVisible();

  await other.close();
  expect(errors).toEqual([]);
});
