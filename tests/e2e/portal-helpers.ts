import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo@2026';

type Outbox = { data: { sms: { mobile: string; code: string; purpose: string }[]; captcha: { key: string; text: string }[] } };

/** The text of the newest captcha, read from the development outbox. */
export async function latestCaptchaText(page: Page): Promise<string> {
  const response = await page.request.get('/api/dev/outbox');
  const outbox = (await response.json()) as Outbox;
  const text = outbox.data.captcha[0]?.text;
  if (!text) throw new Error('no captcha in the outbox');
  return text;
}

/** Collects console errors and uncaught page errors while a test runs. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Logs in through the landing page's login box, as a teacher would. */
export async function loginAs(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: '注册/登录' }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('img', { name: '图形验证码' })).toBeVisible();
  await dialog.getByLabel('用户名').fill(username);
  await dialog.getByLabel('密码', { exact: true }).fill(password);
  await dialog.getByLabel('图形验证码', { exact: true }).fill(await latestCaptchaText(page));
  await dialog.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(/\/paperList$/i);
}
