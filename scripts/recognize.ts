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
 * Prints one JSON line per image, in the order given: { file, ...PageReading } (see
 * src/shared/contract/recognition.ts), or { file, error } when the image could not be read at all.
 * Exits with 1 when any image failed, 2 on bad arguments.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
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
  type Outcome = { result: RecognitionResult } | { error: string };
  const pending: { file: string; outcome: Promise<Outcome> }[] = [];
  const start = (file: string) => ({
    file,
    outcome: readFile(file)
      .then((image) => engine.recognize(image, resolve))
      .then(
        (result): Outcome => ({ result }),
        (error: unknown): Outcome => ({ error: error instanceof Error ? error.message : String(error) }),
      ),
  });
  let next = 0;
  while (next < files.length && pending.length < window) pending.push(start(files[next++] as string));
  try {
    while (pending.length > 0) {
      const { file, outcome } = pending.shift() as (typeof pending)[number];
      if (next < files.length) pending.push(start(files[next++] as string));
      const done = await outcome;
      if ('error' in done) {
        failures += 1;
        process.stdout.write(`${JSON.stringify({ file, error: done.error })}\n`);
        continue;
      }
      const { reading, regions } = done.result;
      process.stdout.write(`${JSON.stringify({ file, ...reading })}\n`);
      if (values.regions) {
        const stem = path.basename(file, path.extname(file));
        for (const region of regions) {
          await writeFile(path.join(values.regions, `${stem}-q${region.questionNo}.jpg`), region.jpeg);
        }
      }
    }
  } finally {
    await engine.close();
  }
  process.exitCode = failures > 0 ? 1 : 0;
}

await main();
