// Benchmark: a cold first load of each entry and of the heaviest portal pages, as a school PC sees it.
// Builds the client (with its manifest and .br/.gz copies) into a temporary folder, starts the server on
// a free port with a fresh embedded database, and loads each view RUNS times in headless Chromium, each
// in a new browser context (an empty cache). Prints per view the median of: JS and CSS bytes (raw, and on
// the wire as the server sent them), first contentful paint, and time to usable (the page's code and its
// first data are in: no loading indicator, no API request in flight), with the machine's load average.
// Logged-in views log in once as the demo teacher and reuse the session cookies.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions } from '@playwright/test';
import { startServer, type BenchServer } from './bench-server';
import { buildWithManifest, kb } from './bundle-graph';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

type View = { name: string; url: string; login: boolean };
const VIEWS: View[] = [
  { name: '/ (portal, logged out)', url: '/', login: false },
  { name: 'scan station (logged out)', url: '/scanstation.html', login: false },
  { name: 'large screen', url: '/largescreen.html', login: false },
  { name: '/paperlist', url: '/paperlist', login: true },
  { name: '/edit', url: '/edit', login: true },
  { name: '/correct', url: '/correct', login: true },
  { name: '/analysis/grade', url: '/analysis/grade', login: true },
  { name: 'scan station (logged in)', url: '/scanstation.html', login: true },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

type Sample = { jsRaw: number; jsWire: number; cssRaw: number; cssWire: number; fcp: number; usable: number };

/** Counts API requests in flight inside the page (the live socket's long polling excepted). */
function instrument() {
  const w = window as unknown as { __inflight: number };
  w.__inflight = 0;
  const counts = (url: string) => url.includes('/api/') && !url.includes('/socket.io/');
  const originalFetch = window.fetch;
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    const url = String(args[0] instanceof Request ? args[0].url : args[0]);
    if (!counts(url)) return originalFetch(...args);
    w.__inflight += 1;
    try {
      return await originalFetch(...args);
    } finally {
      w.__inflight -= 1;
    }
  };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: unknown[]) {
    if (counts(String(args[1]))) {
      w.__inflight += 1;
      this.addEventListener('loadend', () => (w.__inflight -= 1), { once: true });
    }
    return (open as (...a: unknown[]) => void).apply(this, args);
  } as typeof XMLHttpRequest.prototype.open;
}

async function measure(
  browser: Browser,
  base: string,
  view: View,
  session: BrowserContextOptions['storageState'],
): Promise<Sample> {
  const context = await browser.newContext({
    storageState: view.login ? session : undefined,
    viewport: { width: 1440, height: 900 },
  });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  const sample: Sample = { jsRaw: 0, jsWire: 0, cssRaw: 0, cssWire: 0, fcp: 0, usable: 0 };
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    const type = request.resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      (async () => {
        try {
          const response = await request.response();
          if (!response) return;
          const [sizes, body] = await Promise.all([request.sizes(), response.body()]);
          const wire = sizes.responseBodySize + sizes.responseHeadersSize;
          if (type === 'script') {
            sample.jsRaw += body.length;
            sample.jsWire += wire;
          } else {
            sample.cssRaw += body.length;
            sample.cssWire += wire;
          }
        } catch {
          // A request that finished as the context closed (an idle-time prefetch): not counted.
        }
      })(),
    );
  });
  await page.goto(base + view.url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    () => {
      const w = window as unknown as { __inflight: number; __quietSince?: number };
      const rootEl = document.getElementById('root');
      const busy =
        document.readyState !== 'complete' ||
        !rootEl ||
        (rootEl.textContent ?? '').trim() === '' ||
        w.__inflight > 0 ||
        document.querySelector('[role="status"][aria-live="polite"], .semi-spin-spinning, .semi-skeleton') !== null;
      const now = performance.now();
      if (busy) {
        w.__quietSince = undefined;
        return false;
      }
      // Usable once the page has stayed settled for 300 ms (a page may fetch right after it renders).
      w.__quietSince ??= now;
      return now - w.__quietSince >= 300 ? w.__quietSince : false;
    },
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  sample.usable = (await handle.jsonValue()) as number;
  sample.fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
  // What the page fetches once idle (the login box, the scanning library) counts too.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await Promise.all(pending);
  await context.close();
  return sample;
}

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-bench-load-client-'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-bench-load-data-'));
console.log('building the client…');
buildWithManifest(outDir);
fs.writeFileSync(path.join(outDir, '.build-stamp'), new Date().toISOString());
let server: BenchServer | null = null;
let browser: Browser | null = null;
try {
  server = await startServer({
    // DEV_OUTBOX: the login below reads the captcha from the development outbox, which is off unless asked for.
    env: { DATA_DIR: dataDir, CLIENT_DIR: outDir, NODE_ENV: 'development', LOG_LEVEL: 'warn', DEV_OUTBOX: 'true' },
    stdout: 'ignore',
  });
  const base = server.base;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

  // One login as the demo teacher, through the login box as a teacher would.
  const loginContext = await browser.newContext();
  const page = await loginContext.newPage();
  await page.goto(base + '/');
  await page.getByRole('button', { name: '注册/登录' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('img', { name: '图形验证码' }).waitFor();
  const outbox = (await (await page.request.get(base + '/api/dev/outbox')).json()) as { data: { captcha: { text: string }[] } };
  await dialog.getByLabel('用户名').fill('teacher');
  await dialog.getByLabel('密码', { exact: true }).fill('Demo@2026');
  await dialog.getByLabel('图形验证码', { exact: true }).fill(outbox.data.captcha[0]!.text);
  await dialog.getByRole('button', { name: '登录', exact: true }).click();
  await page.waitForURL(/\/paperList$/i);
  const session = await loginContext.storageState();
  await loginContext.close();

  const loadBefore = os.loadavg();
  console.log(`\n${RUNS} cold loads per view, medians (Chromium ${browser.version()}, ${os.cpus().length} cores)`);
  console.log('view                          JS raw     JS wire    CSS raw    CSS wire    FCP ms  usable ms');
  for (const view of VIEWS) {
    const samples: Sample[] = [];
    try {
      for (let run = 0; run < RUNS; run += 1) samples.push(await measure(browser, base, view, session));
    } catch (error) {
      console.log(`${view.name.padEnd(28)}  failed: ${(error as Error).message.split('\n')[0]}`);
      continue;
    }
    const m = (field: keyof Sample) => median(samples.map((s) => s[field]));
    console.log(
      `${view.name.padEnd(28)}  ${kb(m('jsRaw')).padStart(10)} ${kb(m('jsWire')).padStart(10)} ${kb(m('cssRaw')).padStart(10)} ${kb(m('cssWire')).padStart(10)} ${m('fcp').toFixed(0).padStart(8)} ${m('usable').toFixed(0).padStart(10)}`,
    );
  }
  const loadAfter = os.loadavg();
  console.log(
    `\nload average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}`,
  );
} finally {
  await browser?.close();
  await server?.stop();
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}
