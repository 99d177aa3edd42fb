// Benchmark: the wall display's own render time per update, in headless Chromium at 1920x1080. The real
// app (built client, PGlite, demo school) runs in this process; a screen is paired through the API and
// opened as a kiosk (largescreen.html?kiosk=1, display token in its storage, as after pairing). One
// homework is put on today's pipeline by printing its answer sheets. Then BENCH_RENDER_EVENTS recognition
// progress events (the one the recognition queue sends, through the real socket.io path) are raised, one
// every BENCH_RENDER_GAP_MS, each with new counts; in the page, for each event: its websocket frame
// arriving -> the pipeline's 已识别页 cell showing the new counts (DOM committed) -> the next frame
// painted (rAF, then the first task after it). Prints p50/p95/max of both, and the long tasks seen.
// Then checks the layout at 3840x2160, 1920x1080 and 1366x768 (pipeline and results panels): no scroll
// either way, smallest text size; screenshots in BENCH_SHOTS_DIR (default /tmp/largescreen-shots).
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { OAUTH_BASIC_HEADER } from '../../src/shared/contract/auth';
import { RECOGNITION_PROGRESS_EVENT } from '../../src/shared/contract/recognition';
import { buildApp, databaseOptionsFor } from '../../server/app';
import { loadConfig } from '../../server/config';
import { homework } from '../../server/db/schema';
import { DEMO_PASSWORD } from '../../server/db/seed';
import { buildClientIfStale } from '../client-build';

const EVENTS = Number(process.env.BENCH_RENDER_EVENTS ?? 60);
const GAP_MS = Number(process.env.BENCH_RENDER_GAP_MS ?? 300);
const WARMUP = 5;
const SHOTS = process.env.BENCH_SHOTS_DIR ?? '/tmp/largescreen-shots';
const SIZES = [
  { width: 1920, height: 1080 },
  { width: 3840, height: 2160 },
  { width: 1366, height: 768 },
];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};
const summary = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms  p95 ${percentile(values, 95).toFixed(1)} ms  max ${Math.max(...values).toFixed(1)} ms`;

buildClientIfStale();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'largescreen-render-'));
const config = loadConfig({
  ...process.env,
  // The dev outbox (captcha answers) is served outside production only; the client is the production build either way.
  NODE_ENV: 'development',
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  REDIS_URL: '',
  DEV_OUTBOX: 'true',
  DEMO_SCANS: 'false',
  LOG_LEVEL: 'warn',
});
const app = await buildApp({ config, database: databaseOptionsFor(config), logger: { level: 'warn' } });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});

async function cleanUp() {
  await browser.close().catch(() => undefined);
  await app.close().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function api<T>(url: string, init: RequestInit = {}, token?: string): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    ...init,
    headers: {
      ...(init.body && typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...init.headers,
    },
  });
  const body = (await response.json()) as { code: number; msg: string; data: T };
  if (!response.ok) throw new Error(`${url}: ${response.status} ${body.msg}`);
  return body.data;
}

async function login(username: string): Promise<string> {
  const { captchaKey } = await api<{ captchaKey: string }>('/api/captcha');
  const outbox = await api<{ captcha: { key: string; text: string }[] }>('/api/dev/outbox');
  const captcha = outbox.captcha.find((entry) => entry.key === captchaKey)!.text;
  const form = new URLSearchParams({ grant_type: 'password', username, password: DEMO_PASSWORD, captchaKey, captcha });
  const { access_token } = await api<{ access_token: string }>('/api/oauth/oauth/token', {
    method: 'POST',
    headers: { authorization: OAUTH_BASIC_HEADER, 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  return access_token;
}

async function pairScreen(creator: string, panels: string[]): Promise<string> {
  const { code, secret } = await api<{ code: string; secret: string }>('/api/screens/pairings', { method: 'POST', body: '{}' });
  await api(
    '/api/screens',
    { method: 'POST', body: JSON.stringify({ code, name: '走廊大屏', scopeKind: 'school', panels }) },
    creator,
  );
  const { token } = await api<{ token: string }>('/api/screens/pairings/collect', {
    method: 'POST',
    body: JSON.stringify({ secret }),
  });
  return token;
}

/** The page, with its display token stored and every incoming websocket frame of the event time-stamped. */
async function display(token: string, size: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage({ viewport: size });
  // tsx (esbuild, keepNames) wraps named functions in __name(...): the page needs it for the functions below.
  await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  await page.addInitScript(
    ({ token, event }) => {
      localStorage.setItem('displayToken', JSON.stringify(token));
      const frames = new Map<number, number>();
      (window as unknown as { __frames: Map<number, number> }).__frames = frames;
      const Native = window.WebSocket;
      // Listening from the constructor: this listener runs before socket.io's own, in the same task.
      window.WebSocket = class extends Native {
        constructor(...args: ConstructorParameters<typeof WebSocket>) {
          super(...args);
          this.addEventListener('message', (message: MessageEvent) => {
            if (typeof message.data !== 'string' || !message.data.includes(event)) return;
            const recognised = /"recognised":(\d+)/.exec(message.data);
            if (recognised) frames.set(Number(recognised[1]), performance.now());
          });
        }
      };
    },
    { token, event: RECOGNITION_PROGRESS_EVENT },
  );
  await page.goto(`${base}/largescreen.html?kiosk=1`);
  return page;
}

try {
  const creator = await login('creator');
  const page1 = await api<{ list: { id: number; title: string; classes: { id: number }[]; status: string }[] }>(
    '/api/homework?page=1&pageSize=20',
    {},
    creator,
  );
  const hw = page1.list.find((h) => h.status !== 'draft' && h.classes.length > 0)!;
  // Printing its answer sheets puts it on today's pipeline.
  const pdf = await fetch(`${base}/api/homework/${hw.id}/answer-sheet.pdf?mode=student&classId=${hw.classes[0]!.id}`, {
    headers: { authorization: `Bearer ${creator}` },
  });
  if (!pdf.ok) throw new Error(`print: ${pdf.status}`);

  // ---- render time per update at 1920x1080 ----
  const token = await pairScreen(creator, ['pipeline']);
  const page = await display(token, { width: 1920, height: 1080 });
  await page.getByTestId('stage-recognised').first().waitFor();
  await page.evaluate(() => {
    const w = window as unknown as {
      __dom: Map<number, number>;
      __paint: Map<number, number>;
      __long: number[];
    };
    w.__dom = new Map();
    w.__paint = new Map();
    w.__long = [];
    new PerformanceObserver((entries) => {
      for (const entry of entries.getEntries()) w.__long.push(entry.duration);
    }).observe({ type: 'longtask' });
    const cell = () => document.querySelector('[data-testid="stage-recognised"]');
    new MutationObserver(() => {
      const at = performance.now();
      const match = /^(\d+)\/(\d+)$/.exec(cell()?.textContent ?? '');
      if (!match) return;
      const recognised = Number(match[1]);
      if (w.__dom.has(recognised) || recognised === 0) return;
      w.__dom.set(recognised, at);
      // The frame that shows it: rAF runs before its paint, the first task after the rAF runs after it.
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => w.__paint.set(recognised, performance.now());
        channel.port2.postMessage(null);
      });
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const [{ orgId: schoolId }] = (await app.database.db
    .select({ orgId: homework.orgId })
    .from(homework)
    .where(eq(homework.id, hw.id))) as [{ orgId: number }];
  for (let i = 1; i <= EVENTS + WARMUP; i++) {
    app.emitHomework(schoolId, hw.id, RECOGNITION_PROGRESS_EVENT, {
      homeworkId: hw.id,
      stored: 1000 + i,
      recognised: i,
      pending: 1000,
      review: 0,
    });
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
  }
  await page.waitForTimeout(500);
  const timings = await page.evaluate(() => {
    const w = window as unknown as {
      __frames: Map<number, number>;
      __dom: Map<number, number>;
      __paint: Map<number, number>;
      __long: number[];
    };
    return {
      frames: [...w.__frames.entries()],
      dom: [...w.__dom.entries()],
      paint: [...w.__paint.entries()],
      long: w.__long,
    };
  });
  const frames = new Map(timings.frames);
  const dom = new Map(timings.dom);
  const paint = new Map(timings.paint);
  const toDom: number[] = [];
  const toPaint: number[] = [];
  for (let i = WARMUP + 1; i <= EVENTS + WARMUP; i++) {
    const at = frames.get(i);
    if (at === undefined) continue;
    if (dom.has(i)) toDom.push(dom.get(i)! - at);
    if (paint.has(i)) toPaint.push(paint.get(i)! - at);
  }
  console.log(`largescreen render at 1920x1080 (${EVENTS} recognition events, one every ${GAP_MS} ms, after ${WARMUP} warm-up)`);
  console.log(`  frames seen ${frames.size - WARMUP}/${EVENTS}, shown ${toDom.length}/${EVENTS}`);
  console.log(`  event frame -> DOM updated:  ${toDom.length ? summary(toDom) : 'none'}`);
  console.log(`  event frame -> next paint:   ${toPaint.length ? summary(toPaint) : 'none'}`);
  console.log(
    `  long tasks (> 50 ms) during the run: ${timings.long.length}${timings.long.length ? ` (max ${Math.max(...timings.long).toFixed(0)} ms)` : ''}`,
  );
  await page.close();

  // ---- layouts: no scroll, legible ----
  fs.mkdirSync(SHOTS, { recursive: true });
  // One screen per panel: a kiosk with one panel shows it without rotating.
  const panels = [
    { key: 'pipeline', label: '今日作业进度', token: await pairScreen(creator, ['pipeline']), ready: 'stage-recognised' },
    { key: 'results', label: '作业成绩', token: await pairScreen(creator, ['results']), ready: 'grade-rate' },
  ];
  console.log('layouts (scroll: the page is larger than the window; smallest: the smallest text drawn):');
  for (const size of SIZES) {
    for (const panel of panels) {
      const shown = await display(panel.token, size);
      await shown.getByTestId(panel.ready).first().waitFor();
      // The charts load after the first paint and animate in.
      await shown.waitForTimeout(panel.key === 'results' ? 3000 : 500);
      const check = await shown.evaluate(() => {
        const root = document.scrollingElement!;
        let smallest = Infinity;
        let past = 0;
        for (const element of document.querySelectorAll<HTMLElement>('main *')) {
          const box = element.getBoundingClientRect();
          if (box.width === 0 || box.height === 0) continue;
          if (box.bottom > window.innerHeight + 1 || box.right > window.innerWidth + 1) past++;
          const hasText = [...element.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
          if (hasText) smallest = Math.min(smallest, parseFloat(getComputedStyle(element).fontSize));
        }
        return { scroll: root.scrollHeight > window.innerHeight || root.scrollWidth > window.innerWidth, past, smallest };
      });
      const file = path.join(SHOTS, `${size.width}x${size.height}-${panel.key}.png`);
      await shown.screenshot({ path: file });
      console.log(
        `  ${size.width}x${size.height} ${panel.label}: scroll ${check.scroll ? 'YES' : 'no'}, elements past the edge ${check.past}, ` +
          `smallest text ${check.smallest.toFixed(1)} px (${((check.smallest / size.height) * 1080).toFixed(1)} px per 1080 lines) -> ${file}`,
      );
      await shown.close();
    }
  }
  console.log(
    `load: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} (1/5/15 min) on ${os.cpus().length} cores`,
  );
} finally {
  await cleanUp();
}
