import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, latestCaptchaText, loginAs, watchErrors } from './portal-helpers';

test('a teacher logs in from the landing page, lands on /paperList and stays logged in after a reload', async ({ page }) => {
  const errors = watchErrors(page);
  await loginAs(page, 'teacher');
  await expect(page.getByRole('button', { name: '账号菜单' })).toContainText('王老师');
  await page.reload();
  await expect(page).toHaveURL(/\/paperList$/i);
  await expect(page.getByRole('button', { name: '账号菜单' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a logged-out visitor asking for /analysis is sent to / and offered the login box', async ({ page }) => {
  await page.goto('/analysis');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('a wrong password is refused with the server message and a fresh captcha', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: '注册/登录' }).first().click();
  const dialog = page.getByRole('dialog');
  const captcha = dialog.getByRole('img', { name: '图形验证码' });
  await expect(captcha).toBeVisible();
  const before = await captcha.getAttribute('src');
  await dialog.getByLabel('用户名').fill('teacher');
  await dialog.getByLabel('密码', { exact: true }).fill('wrong-password-1');
  const { latestCaptchaText } = await import('./portal-helpers');
  await dialog.getByLabel('图形验证码', { exact: true }).fill(await latestCaptchaText(page));
  await dialog.getByRole('button', { name: '登录', exact: true }).click();
  // The server's message, with the attempts left before the lock, under the form (and in a toast).
  await expect(dialog.getByRole('alert')).toHaveText('用户名或密码错误，还可尝试 4 次');
  await expect.poll(() => captcha.getAttribute('src')).not.toBe(before);
  await expect(page).toHaveURL(/\/$/);
});

test('the login box hides page scrolling while open and gives it back when closed', async ({ page }) => {
  await page.goto('/');
  const overflow = () => page.evaluate(() => getComputedStyle(document.body).overflow);
  expect(await overflow()).not.toBe('hidden');
  await page.getByRole('button', { name: '注册/登录' }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect.poll(overflow).toBe('hidden');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect.poll(overflow).not.toBe('hidden');
});

test('the login form shows the spec messages for empty fields', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: '注册/登录' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: '登录', exact: true }).click();
  await expect(dialog.getByText('请输入用户名')).toBeVisible();
  await expect(dialog.getByText('请输入密码')).toBeVisible();
  await expect(dialog.getByText('请输入图形验证码')).toBeVisible();
});

test('the grade director sees 数据中心 with its three children and a teacher does not', async ({ page }) => {
  await loginAs(page, 'director');
  const dataCenter = page.getByText('数据中心', { exact: true });
  await expect(dataCenter).toBeVisible();
  await dataCenter.hover();
  for (const child of ['学科统计', '作业批改报表', '班级均分及小题对比']) {
    await expect(page.getByText(child, { exact: true })).toBeVisible();
  }
  await page.getByText('学科统计', { exact: true }).click();
  await expect(page).toHaveURL(/\/dataCenter\/subject$/);

  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await loginAs(page, 'teacher');
  await expect(page.getByText('作业列表', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('数据中心', { exact: true })).toHaveCount(0);
});

test('a user without a school year sees 暂无默认学年 and cannot open scanning', async ({ page }) => {
  await loginAs(page, 'newbie');
  await expect(page.getByText('暂无默认学年')).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: '扫描' }).click();
  await expect(page.getByText('请选择学年后再进行扫描')).toBeVisible();
  await expect(page).toHaveURL(/\/paperList$/i);
});

test('a chosen school year persists across a reload', async ({ page }) => {
  await loginAs(page, 'teacher');
  const picker = page.getByRole('group', { name: '选择学年' }).getByRole('combobox');
  const before = (await picker.textContent())?.trim();
  await picker.click();
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  const names = await options.allTextContents();
  const target = names.find((name) => name.trim() !== before);
  expect(target).toBeTruthy();
  // Choosing saves the year and reloads the page by itself; a reload of ours must not race that one.
  const reloaded = page.waitForEvent('load');
  await page.getByRole('option', { name: target! }).click();
  await reloaded;
  await expect(page.getByRole('group', { name: '选择学年' })).toContainText(target!);
  await page.reload();
  await expect(page.getByRole('group', { name: '选择学年' })).toContainText(target!);
});

test('logout returns to / and going back does not show private pages', async ({ page }) => {
  await loginAs(page, 'teacher');
  await page.goto('/analysis/class');
  await expect(page).toHaveURL(/\/analysis\/class$/);
  await page.getByRole('button', { name: '账号菜单' }).hover();
  await page.getByText('退出登录').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: '注册/登录' }).first()).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: '账号菜单' })).toHaveCount(0);
});

test('the top bar collapses to a dropdown on a phone and hides the scan icon', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await loginAs(page, 'teacher');
  await expect(page.getByRole('button', { name: '菜单', exact: true })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: '扫描' })).toHaveCount(0);
  await page.getByRole('button', { name: '菜单', exact: true }).click();
  await page.getByRole('menuitem', { name: '错题重练' }).click();
  await expect(page).toHaveURL(/\/rehearse$/);
});

test('a teacher who opens a deep link logs in and lands on the page asked for', async ({ page }) => {
  await page.goto('/paperlist?tab=papers');
  await expect(page).toHaveURL(/\/$/);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('img', { name: '图形验证码' })).toBeVisible();
  await dialog.getByLabel('用户名').fill('teacher');
  await dialog.getByLabel('密码', { exact: true }).fill(DEMO_PASSWORD);
  await dialog.getByLabel('图形验证码', { exact: true }).fill(await latestCaptchaText(page));
  await dialog.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/paperlist\?tab=papers$/);
});
