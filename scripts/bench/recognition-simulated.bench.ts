// Benchmark: the recognition engine on the pages the browser's simulated scanner really feeds. Headless
// Chromium draws a planned batch with the simulated driver (300 dpi, slight rotation, some pages upside
// down, one blank page, one page of another homework) and runs each page through the scan station's
// image pipeline (A4 to 2480x3507, JPEG 0.85); the engine reads the JPEGs. Prints how many pages and
// bubbles came out as planned, and what went to review.
import path from 'node:path';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { createRecognitionEngine } from '../../server/services/recognition/recognition-worker-pool';
import type { AnswerSheetTemplate } from '../../src/shared/contract/answer-sheet';
import type { SimulatedPage } from '../../src/shared/lib/simulated-scan';
import { standardSpec } from '../../tests/support/synthetic-sheets';

const PAGES = Number(process.env.RECOGNITION_SIMULATED_PAGES ?? 40);
const HOMEWORK = 4201;
const root = path.resolve(import.meta.dirname, '../..');
const spec = standardSpec(HOMEWORK);
const students = Array.from({ length: PAGES }, (_, i) => ({
  name: `学生${i + 1}`,
  code: `2026${String(i + 1).padStart(4, '0')}`,
}));

type Scanned = { template: AnswerSheetTemplate; pages: { plan: SimulatedPage; jpeg: string }[] };

const server = await createServer({
  configFile: false,
  root,
  logLevel: 'silent',
  server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
  optimizeDeps: { include: ['qrcode', 'zod', 'pica'] },
});
await server.listen();
const address = server.httpServer?.address();
const port = typeof address === 'object' && address ? address.port : 0;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

let scanned: Scanned;
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  // tsx names functions through an `__name` helper, which the function handed to the page lacks.
  await page.addInitScript('globalThis.__name = (f) => f');
  // An empty page of the dev server's origin, to import the modules from there.
  await page.route('**/recognition-bench', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>bench</title>' }),
  );
  await page.goto(`http://127.0.0.1:${port}/recognition-bench`);
  scanned = await page.evaluate(
    async ({ spec, students, pages, homeworkId }) => {
      const load = (file: string) => import(/* @vite-ignore */ `/${file}`);
      const [driver, plan, pipelineModule] = await Promise.all([
        load('src/shared/adapters/scanner/simulated-driver.ts'),
        load('src/shared/lib/simulated-scan.ts'),
        load('src/shared/adapters/scanner/image-pipeline.ts'),
      ]);
      const { template, pages: planned } = plan.planSimulatedBatch({ homeworkId, spec, students, pageCount: pages, seed: 2026 });
      const pipeline = pipelineModule.createImagePipeline();
      const out: { plan: unknown; jpeg: string }[] = [];
      for (const [i, p] of planned.entries()) {
        // As a 300 dpi scanner hands an A4 page over: 2480x3508, then the station's pipeline.
        const drawn = driver.renderSimulatedPage(p, template, spec, 300);
        const canvas = new OffscreenCanvas(2480, 3508);
        canvas.getContext('2d')!.drawImage(drawn, 0, 0);
        const scannedPage = await pipeline.transform(
          { kind: 'bitmap', bitmap: canvas.transferToImageBitmap(), bitDepth: 24 },
          { paperSize: 1, scanSubject: false, sequence: i + 1 },
        );
        const bytes = new Uint8Array(await scannedPage.blob.arrayBuffer());
        let binary = '';
        for (let j = 0; j < bytes.length; j += 0x8000) binary += String.fromCharCode(...bytes.subarray(j, j + 0x8000));
        out.push({ plan: p, jpeg: btoa(binary) });
      }
      pipeline.dispose();
      return { template, pages: out } as never;
    },
    { spec, students, pages: PAGES, homeworkId: HOMEWORK },
  );
} finally {
  await browser.close();
  await server.close();
}

const engine = createRecognitionEngine();
const resolve = async (qr: { homeworkId: number } | null) => (qr?.homeworkId === HOMEWORK ? scanned.template : null);
const counts = {
  sheets: 0,
  sheetsRight: 0,
  bubbles: 0,
  bubblesRight: 0,
  review: 0,
  blankFlagged: 0,
  blank: 0,
  foreign: 0,
  foreignRead: 0,
  upsideDown: 0,
  upsideDownRight: 0,
};
const notes: string[] = [];
try {
  const results = await Promise.all(
    scanned.pages.map(async ({ plan, jpeg }) => ({
      plan,
      reading: (await engine.recognize(Buffer.from(jpeg, 'base64'), resolve)).reading,
    })),
  );
  for (const [i, { plan, reading }] of results.entries()) {
    if (reading.problems.length > 0) counts.review += 1;
    if (plan.kind === 'blank') {
      counts.blank += 1;
      if (reading.problems.some((p) => p.kind === 'blankPage')) counts.blankFlagged += 1;
      continue;
    }
    if (plan.homeworkId !== HOMEWORK) {
      counts.foreign += 1;
      if (reading.qr?.homeworkId === plan.homeworkId) counts.foreignRead += 1;
      continue;
    }
    counts.sheets += 1;
    if (plan.upsideDown) {
      counts.upsideDown += 1;
      if (reading.rotation === 180) counts.upsideDownRight += 1;
    }
    const layout = scanned.template.pages[plan.pageIndex]!;
    const filled = new Map(plan.filled.map((f) => [f.questionNo, new Set(f.labels)]));
    let right = reading.problems.length === 0 && reading.qr?.studentCode === plan.student.code;
    for (const q of layout.objective) {
      const read = reading.objective.find((o) => o.questionNo === q.questionNo);
      for (const o of q.options) {
        counts.bubbles += 1;
        const ok = read !== undefined && (filled.get(q.questionNo)?.has(o.label) ?? false) === read.marked.includes(o.label);
        if (ok) counts.bubblesRight += 1;
        else right = false;
      }
    }
    if (right) counts.sheetsRight += 1;
    else if (notes.length < 5) notes.push(`page ${i + 1}: ${JSON.stringify(reading.problems)}`);
  }
} finally {
  await engine.close();
}

console.log(
  `recognition of simulated-scanner pages (Chromium drawing + the station's pipeline, ${scanned.pages.length} pages): ` +
    `${counts.sheetsRight} / ${counts.sheets} sheets read entirely right with no review; bubbles right ${counts.bubblesRight} / ${counts.bubbles}; ` +
    `upside-down pages turned back ${counts.upsideDownRight} / ${counts.upsideDown}; blank pages flagged ${counts.blankFlagged} / ${counts.blank}; ` +
    `pages of another homework read as such ${counts.foreignRead} / ${counts.foreign}; pages to review ${counts.review}`,
);
for (const note of notes) console.log(`  ${note}`);
