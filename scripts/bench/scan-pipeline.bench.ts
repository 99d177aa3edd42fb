// Benchmark: the scan image pipeline in headless Chromium. 20 simulated A4 answer sheets at 300 dpi go
// one at a time through the Web Worker (decode → 1-bit greyscale / pica resize → JPEG 0.85), as during a
// scan; prints the median time per page and pages per minute. Goal: at least 10× faster than 500 ms/page.
import path from 'node:path';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';

const PAGES = 20;
const GOAL_MS = 50;
const root = path.resolve(import.meta.dirname, '../..');

const server = await createServer({
  configFile: false,
  root,
  logLevel: 'silent',
  server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
  optimizeDeps: { include: ['pica', 'qrcode', 'zod'] },
});
await server.listen();
const address = server.httpServer?.address();
const port = typeof address === 'object' && address ? address.port : 0;

const browser = await chromium.launch({
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
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.goto(`http://127.0.0.1:${port}/scripts/bench/scan-pipeline-page.html?pages=${PAGES}`);
  await page.waitForFunction(() => window.benchResult !== undefined, undefined, { timeout: 60_000 });
  const runs = await page.evaluate(() => window.benchResult!);
  const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN;
  for (const run of runs) {
    const ms = median(run.times);
    console.log(
      `scan-pipeline: ${run.label}: median ${ms.toFixed(1)} ms/page, ${(60_000 / ms).toFixed(0)} pages/minute ` +
        `(min ${Math.min(...run.times).toFixed(1)}, max ${Math.max(...run.times).toFixed(1)}; ${run.times.length} pages; ` +
        `JPEG ${run.width}x${run.height}, ${(run.bytes / 1024).toFixed(0)} KiB)`,
    );
  }
  const main = median(runs[1]!.times);
  console.log(
    `scan-pipeline: goal ≤ ${GOAL_MS} ms/page (10× faster than 500 ms) for a 300 dpi scanner page: ${main <= GOAL_MS ? 'met' : 'NOT met'} (${(500 / main).toFixed(1)}×)`,
  );
} finally {
  await browser.close();
  await server.close();
}
