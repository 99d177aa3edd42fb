import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, loginAs, watchErrors } from './portal-helpers';
import { chooseSimulatedScanner, counter, feed, feedEnded } from './scan-helpers';

const PAGES = 40;
const PAGES_PER_FEED = 10;

/** A port nothing listens on now (the restarted server must come back on the same one). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Every stored scan image under `dir` (recursively), and any temporary file an interrupted write left. */
function scanFiles(dir: string): { images: string[]; temporary: string[] } {
  if (!fs.existsSync(dir)) return { images: [], temporary: [] };
  const all = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((entry) =>
    fs.statSync(path.join(dir, entry)).isFile(),
  );
  return { images: all.filter((f) => f.endsWith('.jpg')), temporary: all.filter((f) => f.endsWith('.tmp')) };
}

/** The access token and the station's current batch, as the page keeps them. */
async function stationState(page: Page, batchKey: string): Promise<{ token: string; batchId: number }> {
  return page.evaluate((key) => {
    const cookie = document.cookie.split('; ').find((entry) => entry.startsWith('access_token='));
    const batch = JSON.parse(localStorage.getItem(key) ?? '{}') as { batchId?: number };
    return { token: decodeURIComponent(cookie?.slice('access_token='.length) ?? ''), batchId: batch.batchId ?? 0 };
  }, batchKey);
}

test.describe('scan station', () => {
  let server: ChildProcess | null = null;
  let dataDir = '';
  let port = 0;
  let base = '';

  async function startServer(): Promise<void> {
    const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'server/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        CLIENT_DIR: `.test-output/e2e-client-${process.env.E2E_PORT}`,
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
        DEV_OUTBOX: 'true',
        // As in playwright.config.ts: no background demo scans beside the test's own pages.
        DEMO_SCANS: 'false',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
      // Its own process group: tsx runs the server in a child process, and the crash must take both.
      detached: true,
    });
    server = child;
    await expect
      .poll(
        async () => {
          if (child.exitCode !== null) throw new Error(`the scan server exited with ${child.exitCode}`);
          return fetch(`${base}/api/health`).then(
            (response) => response.status,
            () => 0,
          );
        },
        { timeout: 120_000, intervals: [500] },
      )
      .toBe(200);
  }

  async function killServer(): Promise<void> {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  }

  test.beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-scan-e2e-'));
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
  });
  test.afterAll(async () => {
    await killServer();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the kiosk scans 40 pages through a server crash and a reload, and the server stores each once', async ({ page }) => {
    test.setTimeout(300_000);
    await startServer();

    await page.goto(`${base}/scanstation.html`);
    await expect(page).toHaveTitle('智慧作业 · 扫描站');
    await expect(page.getByRole('heading', { name: '智慧作业 · 扫描站' })).toBeVisible();
    await expect(page.getByRole('img', { name: '图形验证码' })).toBeVisible();
    const outbox = (await (await fetch(`${base}/api/dev/outbox`)).json()) as { data: { captcha: { text: string }[] } };
    await page.getByLabel('用户名').fill('teacher');
    await page.getByLabel('密码', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel('图形验证码', { exact: true }).fill(outbox.data.captcha[0]!.text);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expect(page.getByText('王老师')).toBeVisible();
    await expect(page.getByText('快捷键：')).toBeVisible();
    await expect(page.getByRole('combobox', { name: '选择作业' })).toContainText('按二维码识别');
    await chooseSimulatedScanner(page);

    // Two feeds; the server dies while the second is still coming in.
    await feed(page, 'F8');
    await feedEnded(page);
    await expect(page.getByText(/已上传 10 ·/)).toBeVisible();
    await feed(page, 'button');
    // Each simulated page is drawn at 300 dpi and encoded in the browser: slow on a busy machine.
    await expect(counter(page)).toContainText(/已扫描\s*1[3-9]\s*页/, { timeout: 60_000 });
    await killServer();
    await feedEnded(page);
    await expect(counter(page)).toContainText(/已扫描\s*20\s*页/);

    // With the server down the station keeps scanning into the queue.
    await feed(page, 'Space');
    await feedEnded(page);
    await feed(page, 'button');
    await feedEnded(page);
    await expect(counter(page)).toContainText(/已扫描\s*40\s*页/);
    await expect(page.getByText(/上传暂未成功/)).toBeVisible();
    const { batchId } = await stationState(page, 'scanStationBatch');
    expect(batchId).toBeGreaterThan(0);

    // The tab reloads while the server is away (the browser shows its error page), then the server returns.
    await page.reload().catch(() => undefined);
    await startServer();
    await page.goto(`${base}/scanstation.html`);
    await expect(page.getByText('王老师')).toBeVisible();
    await expect(counter(page)).toContainText(/已扫描\s*40\s*页/);
    await expect(page.getByText(`排队中 0 · 上传中 0 · 已上传 ${PAGES} · 失败 0`)).toBeVisible({ timeout: 120_000 });
    await expect(page.getByText('全部页面已上传')).toBeVisible();
    await expect(page.getByRole('progressbar', { name: '上传进度' })).toHaveAttribute('aria-valuenow', '100');
    await expect(page.getByRole('listitem', { name: /已上传$/ }).first()).toBeVisible();

    const { token } = await stationState(page, 'scanStationBatch');
    const answer = (await (
      await fetch(`${base}/api/scan/batches/${batchId}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { data: { pageCount: number; homeworkId: number | null } };
    expect(answer.data).toMatchObject({ pageCount: PAGES, homeworkId: null });
    const files = scanFiles(path.join(dataDir, 'scans'));
    expect(files.images).toHaveLength(PAGES);
    expect(files.temporary).toEqual([]);
  });
});

test('the portal /scan page scans 40 pages for a homework, riding out a lost network, each page stored once', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  await loginAs(page, 'teacher');
  await page.getByRole('banner').getByRole('button', { name: '扫描' }).click();
  await expect(page).toHaveURL(/\/scan$/);
  await expect(page.getByRole('heading', { name: '扫描', exact: true })).toBeVisible();

  // A homework of its own, with students enough for 40 pages (the other suites scan theirs); other tests
  // may still have scanned pages of other homework into this server's data folder.
  await page.getByRole('combobox', { name: '选择作业' }).click();
  await page.getByRole('option').filter({ hasText: '现代文阅读专项（' }).click();
  const scansDir = path.join(`.test-output/e2e-data-${process.env.E2E_PORT}`, 'scans');
  const earlier = new Set(scanFiles(scansDir).images);

  await chooseSimulatedScanner(page);

  await feed(page, 'button');
  await feedEnded(page);
  await context.setOffline(true);
  await feed(page, 'F8');
  await feedEnded(page);
  await expect(page.getByText(/上传暂未成功/)).toBeVisible();
  await context.setOffline(false);
  for (let n = 2; n < PAGES / PAGES_PER_FEED; n += 1) {
    await feed(page, 'button');
    await feedEnded(page);
  }
  await expect(counter(page)).toContainText(/已扫描\s*40\s*页/);
  await expect(page.getByText(`排队中 0 · 上传中 0 · 已上传 ${PAGES} · 失败 0`)).toBeVisible({ timeout: 90_000 });

  const { token, batchId } = await stationState(page, 'portalScanBatch');
  const batch = await page.request.get(`/api/scan/batches/${batchId}`, { headers: { authorization: `Bearer ${token}` } });
  const data = (await batch.json()).data as { pageCount: number; homeworkId: number; orgId: number };
  expect(data.pageCount).toBe(PAGES);
  expect(data.homeworkId).toBeGreaterThan(0);
  const stored = scanFiles(scansDir).images.filter((file) => !earlier.has(file));
  expect(stored).toHaveLength(PAGES);
  expect(stored.every((file) => file.startsWith(path.join(String(data.orgId), String(data.homeworkId), path.sep)))).toBe(true);
  await expect(page.getByText(`服务器已保存本批次 ${PAGES} 页`)).toBeVisible();
  // The scanning service is not installed here: the station says so and offers our own installers.
  await expect(page.getByText('这台电脑还没有安装扫描服务')).toBeVisible();
  const installer = page.getByRole('link', { name: /下载 .* 版（推荐）/ });
  const installerHref = (await installer.getAttribute('href'))!;
  expect(installerHref).toMatch(/^\/dwt-resources\/dist\/DynamicWebTWAINServiceSetup/);
  expect((await page.request.head(installerHref)).status()).toBe(200);
  // The offline stretch makes the browser log failed requests, and the scanning library's probe of the
  // (absent) local scanning service fails to connect; nothing else may fail.
  expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource|127\.0\.0\.1:186\d\d/.test(e))).toEqual([]);
});

test('the portal /scan page scans for the homework chosen next, even when the scan starts as the dropdown closes', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  await loginAs(page, 'teacher');
  await page.goto('/scan');
  // Two homework of its own (the other suites scan theirs), both with students not yet scanned.
  const first = '整式的加减课后作业';
  const next = '第一单元基础练习';
  const choose = async (title: string) => {
    await page.getByRole('combobox', { name: '选择作业' }).click();
    await page
      .getByRole('option')
      .filter({ hasText: `${title}（` })
      .click();
  };
  await chooseSimulatedScanner(page);
  await choose(first);
  await expect(page.getByRole('combobox', { name: '选择作业' })).toContainText(first);
  await feed(page, 'button');
  await feedEnded(page);

  // What the simulated feeder draws from here on: the homework whose students and sheet it asks for.
  const drawn: string[] = [];
  page.on('request', (request) => {
    const match = /\/api\/(?:scan\/homework|homework)\/(\d+)\/(?:unscanned-students|answer-sheet\/spec)/.exec(request.url());
    if (match) drawn.push(match[1]!);
  });
  // Chosen, and scanned at once while the dropdown is still closing.
  await choose(next);
  await page.getByRole('button', { name: '开始扫描' }).click();
  await expect(page.getByRole('button', { name: /正在扫描/ })).toBeVisible();
  await feedEnded(page);
  await expect(counter(page)).toContainText(/已扫描\s*10\s*页/);
  await expect(page.getByText(/未扫描到图像/)).toHaveCount(0);

  const { token, batchId } = await stationState(page, 'portalScanBatch');
  const headers = { authorization: `Bearer ${token}` };
  const batch = (await (await page.request.get(`/api/scan/batches/${batchId}`, { headers })).json()).data as {
    homeworkId: number;
    pageCount: number;
  };
  const scannable = (await (await page.request.get('/api/homework/scannable', { headers })).json()).data as {
    id: number;
    title: string;
  }[];
  const nextId = scannable.find((h) => h.title === next)!.id;
  expect(batch.homeworkId).toBe(nextId);
  expect(drawn.length).toBeGreaterThan(0);
  expect(new Set(drawn)).toEqual(new Set([String(nextId)]));
  // The scanning library's probe of the (absent) local scanning service fails to connect; nothing else may fail.
  expect(errors.filter((e) => !/Failed to load resource|127\.0\.0\.1:186\d\d/.test(e))).toEqual([]);
});
