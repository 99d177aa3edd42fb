import { expect, type Page } from '@playwright/test';

/** Presses 开始扫描 (the button, F8 or Space) and waits for the scan to start. */
export async function feed(page: Page, how: 'button' | 'F8' | 'Space') {
  const button = page.getByRole('button', { name: '开始扫描' });
  await expect(button).toBeEnabled();
  if (how === 'button') await button.click();
  else {
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press(how);
  }
  await expect(page.getByRole('button', { name: /正在扫描/ })).toBeVisible();
}

/** Waits for the feeder to run empty. */
export async function feedEnded(page: Page) {
  await expect(page.getByRole('button', { name: '开始扫描' })).toBeVisible({ timeout: 90_000 });
}

/** Opens 扫描设置 (which Escape does not close), chooses the simulated scanner and A4, and saves. */
export async function chooseSimulatedScanner(page: Page) {
  await page.getByRole('button', { name: '扫描设置' }).click();
  const dialog = page.getByRole('dialog', { name: '扫描设置' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  // Semi's Select replaces its aria-label, so the dropdown is found by its placeholder.
  await dialog.getByText('请选择扫描仪').click();
  await page.getByRole('option', { name: '模拟扫描仪' }).click();
  await dialog.getByRole('radio', { name: 'A4' }).check();
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
}

/** The station's page counter. */
export const counter = (page: Page) => page.getByRole('status', { name: '本批次页数' });

/** The access token the page holds (its cookie), for API checks beside the UI. */
export async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const cookie = document.cookie.split('; ').find((entry) => entry.startsWith('access_token='));
    return decodeURIComponent(cookie?.slice('access_token='.length) ?? '');
  });
}
