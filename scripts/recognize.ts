/**
 * `npm run recognize`: reads scanned answer-sheet pages with the recognition engine, for audits and
 * benchmarks, without the server or a database.
 *
 *   npm run recognize -- --template <template.json> [--threads <n>] [--regions <dir>] <image.jpg>...
 *
 * --template  the answer-sheet template the pages were printed with: an AnswerSheetTemplate as JSON, or
 *             the whole response of GET /api/homework/:id/answer-sheet/template ({ code, msg, data }).
 * --threads   worker threads (default: the machine's cores).
 * --regions   also write each page's answer-region images there, as <image>-q<no>.jpg.
 *
 * Images: whatever sharp decodes: JPEG, PNG (1-bit, 16-bit, with alpha: laid on white), TIFF (G4 too),
 * WebP. Each page of a multi-page file (a scanner's multi-page TIFF) is read as a page of its own.
 *
 * Prints one JSON line per image, in the order given: { file, ...PageReading } (see
 * src/shared/contract/recognition.ts), or { file, error } when the image could not be read at all (an
 * empty, corrupt or truncated file, not an image, over sharp's pixel limit); a multi-page file gives
 * one line per page, each with its `page` (from 1). An image too small to be a page reads with the
 * problem fiducialsNotFound. Exits with 1 when any image failed, 2 on bad arguments.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { answerSheetTemplateSchema, type AnswerSheetTemplate } from '../src/shared/contract/answer-sheet';
import type { RecognitionResult } from '../server/services/recognition/recognition-engine';
import { createRecognitionEngine } from '../server/services/recognition/recognition-worker-pool';

const USAGE = 'Usage: npm run recognize -- --template <template.json> [--threads <n>] [--regions <dir>] <image.jpg>...';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

/** The template from a file holding either the template or the API's envelope around it. */
function parseTemplateFile(text: string): AnswerSheetTemplate {
  const json: unknown = JSON.parse(text);
  const candidate =
    json && typeof json === 'object' && 'data' in json && 'code' in json ? (json as { data: unknown }).data : json;
  return answerSheetTemplateSchema.parse(candidate);
}

/**
 * The pages of one image file: the file itself, or each page of a multi-page one (as a PNG the engine
 * reads like any other). A file sharp cannot even open is passed on whole: the engine's error says why.
 */
async function pageImages(image: Buffer): Promise<({ image: Buffer; page?: number } | { page: number; error: string })[]> {
  let pages = 1;
  try {
    pages = (await sharp(image).metadata()).pages ?? 1;
  } catch {
    return [{ image }];
  }
  if (pages <= 1) return [{ image }];
  return Promise.all(
    Array.from({ length: pages }, (_, i) =>
      sharp(image, { page: i })
        .png({ compressionLevel: 1 })
        .toBuffer()
        .then(
          (png) => ({ image: png, page: i + 1 }),
          (error: unknown) => ({ page: i + 1, error: error instanceof Error ? error.message : String(error) }),
        ),
    ),
  );
}

async function main() {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { template: { type: 'string' }, threads: { type: 'string' }, regions: { type: 'string' } },
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals: files } = parsed;
  if (!values.template) fail('Missing --template');
  if (files.length === 0) fail('No images given');
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) fail('--threads must be a positive integer');

  let template: AnswerSheetTemplate;
  try {
    template = parseTemplateFile(await readFile(values.template, 'utf8'));
  } catch (error) {
    fail(`Cannot read the template ${values.template}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (values.regions) await mkdir(values.regions, { recursive: true });

  const engine = createRecognitionEngine({ threads });
  // Every page is read against the one template; a page of another homework comes back unread with
  // its QR, as the server would see it.
  const resolve = async () => template;
  let failures = 0;
  // A bounded window keeps a few pages per thread in flight and prints in the order given.
  const window = Math.max(2, (threads ?? 2) * 2);
  type Outcome = { page?: number } & ({ result: RecognitionResult } | { error: string });
  const pending: { file: string; outcomes: Promise<Outcome[]> }[] = [];
  const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
  const read = (image: Buffer, page?: number): Promise<Outcome> =>
    engine.recognize(image, resolve).then(
      (result): Outcome => ({ page, result }),
      (error: unknown): Outcome => ({ page, error: message(error) }),
    );
  const start = (file: string) => ({
    file,
    outcomes: readFile(file).then(
      async (image) => {
        const pages = await pageImages(image);
        return Promise.all(pages.map((p) => ('error' in p ? { page: p.page, error: p.error } : read(p.image, p.page))));
      },
      (error: unknown): Outcome[] => [{ error: message(error) }],
    ),
  });
  let next = 0;
  while (next < files.length && pending.length < window) pending.push(start(files[next++] as string));
  try {
    while (pending.length > 0) {
      const { file, outcomes } = pending.shift() as (typeof pending)[number];
      if (next < files.length) pending.push(start(files[next++] as string));
      for (const done of await outcomes) {
        const page = done.page === undefined ? {} : { page: done.page };
        if ('error' in done) {
          failures += 1;
          process.stdout.write(`${JSON.stringify({ file, ...page, error: done.error })}\n`);
          continue;
        }
        const { reading, regions } = done.result;
        process.stdout.write(`${JSON.stringify({ file, ...page, ...reading })}\n`);
        if (values.regions) {
          const stem = path.basename(file, path.extname(file)) + (done.page === undefined ? '' : `-p${done.page}`);
          for (const region of regions) {
            await writeFile(path.join(values.regions, `${stem}-q${region.questionNo}.jpg`), region.jpeg);
          }
        }
      }
    }
  } finally {
    await engine.close();
  }
  process.exitCode = failures > 0 ? 1 : 0;
}

await main();
