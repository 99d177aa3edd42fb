// Benchmark: the held-out check of recognition (issue 18). `npm run bench heldout`.
// Sheets made differently from the accuracy bench's (heldout-sheets.ts: other mark shapes, pens, greys,
// resolutions, bit depths, file formats, streaks, stray lines and photos than the generator the engine
// was tuned on), written to files and read the way an outside checker reads them: through the
// `npm run recognize` CLI (scripts/recognize.ts, a child process), each reading then put through the
// server's own rule for what is scored and what a person sees first (heldBackForReview of
// server/services/marking/page-settlement.ts). Per kind: pages located, questions right, pages to
// review, and the wrong answers that would be scored without review (goal 0).
// HELDOUT_SHEETS sets the sheets per kind (default 12), HELDOUT_FROM the first sheet's index (default 0: a
// set of other sheets than the ones the engine was checked on), HELDOUT_KINDS picks kinds (comma-separated),
// HELDOUT_DIR keeps the images (and template.json, truth.json) there, HELDOUT_THREADS the CLI's threads (default 2);
// HELDOUT_REUSE=1 reads the images already in HELDOUT_DIR again (after a change to the engine) instead of generating them;
// HELDOUT_WHY=1 prints why each page went to review (its page problems and held questions, with truth and reading).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { heldBackForReview, ENGINE_PAGE_KINDS } from '../../server/services/marking/page-settlement';
import type { PageReading } from '../../src/shared/contract/recognition';
import { sheetFixture, standardSpec } from '../../tests/support/synthetic-sheets';
import { HELDOUT_KINDS, HELDOUT_WHAT, renderHeldout, type HeldoutFile, type HeldoutKind } from './heldout-sheets';

const PER_KIND = Number(process.env.HELDOUT_SHEETS ?? 12);
const FROM = Number(process.env.HELDOUT_FROM ?? 0);
const ONLY = process.env.HELDOUT_KINDS?.split(',');
const THREADS = Number(process.env.HELDOUT_THREADS ?? 2);
const root = path.resolve(import.meta.dirname, '../..');
const kinds = HELDOUT_KINDS.filter((k) => !ONLY || ONLY.includes(k));

const fixture = sheetFixture(standardSpec(4101, 'A4'));
const layout = fixture.template.pages[0]!;
const dir = process.env.HELDOUT_DIR ?? (await mkdtemp(path.join(tmpdir(), 'heldout-')));
await mkdir(dir, { recursive: true });
await writeFile(path.join(dir, 'template.json'), JSON.stringify(fixture.template));

const started = performance.now();
type Sheet = Omit<HeldoutFile, 'bytes'> & { kind: HeldoutKind; file: string };
const sheets: Sheet[] = [];
const truthFile = path.join(dir, 'truth.json');
if (process.env.HELDOUT_REUSE === '1') {
  type Stored = Omit<Sheet, 'expected'> & { expected: [number, string[]][] };
  for (const s of JSON.parse(await readFile(truthFile, 'utf8')) as Stored[]) {
    if (kinds.includes(s.kind)) sheets.push({ ...s, expected: new Map(s.expected) });
  }
}
for (const kind of sheets.length > 0 ? [] : kinds) {
  for (let index = FROM; index < FROM + PER_KIND; index += 1) {
    const seed = 70000 + HELDOUT_KINDS.indexOf(kind) * 1000 + index;
    const sheet = await renderHeldout(fixture, { kind, index, seed });
    const file = path.join(dir, sheet.name);
    await writeFile(file, sheet.bytes);
    sheets.push({ name: sheet.name, seed: sheet.seed, expected: sheet.expected, kind, file });
  }
}
if (process.env.HELDOUT_REUSE !== '1') {
  await writeFile(truthFile, JSON.stringify(sheets.map((s) => ({ ...s, expected: [...s.expected] }))));
}
const generated = (performance.now() - started) / 1000;

// Through the CLI, as `npm run recognize` runs it.
const cliStarted = performance.now();
const { stdout } = await promisify(execFile)(
  process.execPath,
  [
    path.join(root, 'node_modules/tsx/dist/cli.mjs'),
    path.join(root, 'scripts/recognize.ts'),
    '--template',
    path.join(dir, 'template.json'),
    '--threads',
    String(THREADS),
    ...sheets.map((s) => s.file),
  ],
  { cwd: root, maxBuffer: 1 << 28 },
).catch((error: { stdout?: string; code?: number }) => {
  // Exit code 1: some image could not be read; its line says so and the others still count.
  if (error.code === 1 && error.stdout) return { stdout: error.stdout };
  throw error;
});
const cliSeconds = (performance.now() - cliStarted) / 1000;
const lines = new Map<string, (PageReading & { file: string }) | { file: string; error: string }>();
for (const line of stdout.trim().split('\n')) {
  const parsed = JSON.parse(line) as { file: string };
  lines.set(parsed.file, parsed as never);
}

type Tally = {
  pages: number;
  located: number;
  questions: number;
  right: number;
  review: number;
  wrongUnseen: number;
  errors: number;
};
const tallies = new Map<HeldoutKind, Tally>(
  kinds.map((k) => [k, { pages: 0, located: 0, questions: 0, right: 0, review: 0, wrongUnseen: 0, errors: 0 }]),
);
const examples: string[] = [];
const why: string[] = [];
const key = (labels: readonly string[]) => [...labels].sort().join('');
for (const sheet of sheets) {
  const t = tallies.get(sheet.kind)!;
  t.pages += 1;
  const line = lines.get(sheet.file);
  if (!line || 'error' in line) {
    t.errors += 1;
    t.review += 1;
    examples.push(`${sheet.name}: ${line ? line.error : 'no line'}`);
    continue;
  }
  const reading = line;
  if (reading.transform !== null && reading.objective.length > 0) t.located += 1;
  const blocked = reading.problems.some((p) => ENGINE_PAGE_KINDS.has(p.kind));
  let review = blocked;
  for (const q of layout.objective) {
    const truth = sheet.expected.get(q.questionNo) ?? [];
    const read = reading.objective.find((o) => o.questionNo === q.questionNo);
    const held = heldBackForReview(reading, q, q.type);
    if (held) review = true;
    t.questions += 1;
    const right = read !== undefined && key(read.marked) === key(truth);
    if (held && process.env.HELDOUT_WHY === '1') {
      const detail = reading.problems.find((p) => p.questionNo === q.questionNo)?.detail ?? '';
      why.push(
        `${sheet.name} q${q.questionNo}: truth ${key(truth) || '-'} read ${key(read?.marked ?? []) || '-'} ` +
          `conf ${read?.confidence} ${right ? 'right' : 'WRONG'} ${detail}`,
      );
    }
    if (right) t.right += 1;
    if (!right && read && !held) {
      t.wrongUnseen += 1;
      examples.push(
        `${sheet.name} (seed ${sheet.seed}) q${q.questionNo}: truth ${key(truth) || '-'} read ${key(read.marked) || '-'} ` +
          `fills ${read.fills.map((f) => `${f.label}=${f.fill}`).join(' ')} conf ${read.confidence}`,
      );
    }
  }
  if (review) t.review += 1;
  if (blocked && process.env.HELDOUT_WHY === '1') {
    why.push(
      `${sheet.name} page: ${reading.problems
        .filter((p) => ENGINE_PAGE_KINDS.has(p.kind))
        .map((p) => `${p.kind} ${p.detail ?? ''}`)
        .join('; ')}`,
    );
  }
}
if (why.length > 0) console.log(why.join('\n'));

const pct = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`);
console.log(
  `recognition held-out check: ${sheets.length} sheets generated in ${generated.toFixed(0)} s, ` +
    `read by \`npm run recognize\` (${THREADS} threads) in ${cliSeconds.toFixed(0)} s; scored by the server's rule (heldBackForReview); images in ${dir}`,
);
console.log(
  `  ${'kind'.padEnd(20)}${'pages'.padStart(6)}${'located'.padStart(9)}${'questions right'.padStart(22)}${'to review'.padStart(16)}${'wrong unseen'.padStart(14)}  what`,
);
let wrongUnseen = 0;
for (const [kind, t] of tallies) {
  wrongUnseen += t.wrongUnseen;
  console.log(
    `  ${kind.padEnd(20)}${String(t.pages).padStart(6)}${String(t.located).padStart(9)}` +
      `${`${t.right}/${t.questions} (${pct(t.right, t.questions)})`.padStart(22)}` +
      `${`${t.review} (${pct(t.review, t.pages)})`.padStart(16)}${String(t.wrongUnseen).padStart(14)}  ${HELDOUT_WHAT[kind]}` +
      (t.errors > 0 ? ` [${t.errors} unreadable]` : ''),
  );
}
console.log(`  wrong answers scored without review: ${wrongUnseen} (goal 0: ${wrongUnseen === 0 ? 'met' : 'NOT met'})`);
for (const example of examples) console.log(`    ${example}`);
if (!process.env.HELDOUT_DIR) await rm(dir, { recursive: true, force: true });
