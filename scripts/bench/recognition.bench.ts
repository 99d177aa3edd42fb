// Benchmark: recognition of scanned answer sheets (issue 6).
// 1. Accuracy: ≥ 500 synthetic sheets with known answers (tests/support/synthetic-sheets.ts: the printed
//    PDF rasterised at 300 dpi, pencil marks, handwriting, scanner degradations, JPEG), read by the
//    worker-pool engine. Clean: solid marks, up to 1.5 degrees, scale ±1 %, light noise, 15 % upside
//    down. Degraded: up to 3 degrees, scale ±3 %, stretch, offset, 15 % upside down, paper and toner
//    tones, noise, dust, streaks, blur, JPEG 70-90; faint, partial, erased and double marks. Prints
//    bubble-level accuracy, the share of pages sent to review (clean pages apart) and the wrong answers
//    that would enter scores without review.
//    Goals: ≥ 99.9 % of bubbles right, 0 wrong answers unreviewed, < 2 % of clean pages to review.
// 2. Throughput: 2,000 A4 300 dpi JPEG pages (a few distinct ones, reused) through the engine on both
//    cores; pages per second and sheets per minute (goal ≥ 600, issue 18), the bare JPEG decode per page for
//    comparison, and the process RSS sampled over the run (first, last, max): it must stay flat.
// RECOGNITION_BENCH_SHEETS and RECOGNITION_BENCH_PAGES shrink the runs for a quick look;
// RECOGNITION_BENCH_ACCURACY_ONLY=1 skips the throughput part, RECOGNITION_BENCH_THROUGHPUT_ONLY=1 the
// accuracy part; RECOGNITION_BENCH_CASES sets the sheets per case kind (ticks, crosses, 1-bit faint,
// column streaks, stray lines, half-erased, all-faint, all-tick, phone photos, stray lines over ticks, light marks and fills,
// diagonal stray lines at 45 degrees over empty bubbles and marks, rings drawn around options, small dots; and two-page sheets of one student, page 2 with five
// objective questions: all faint on a 1-bit scan, all ticks, all faint, read with the student's other page as calibration
// (sheet-calibration.ts), their pages to review printed with and without it), RECOGNITION_BENCH_KINDS
// picks kinds (comma-separated), RECOGNITION_BENCH_WHY=1 prints why each non-clean page goes to review, RECOGNITION_BENCH_DUMP_DIR keeps the JPEG
// of every sheet with a wrong answer scored unseen (and, with RECOGNITION_BENCH_WHY=1, of every page the WHY lines name).
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { createRecognitionEngine } from '../../server/services/recognition/recognition-worker-pool';
import { decodeGrey } from '../../server/services/recognition/grey-image';
import type { AnswerSheetSpec, AnswerSheetTemplate, ObjectiveQuestionLayout } from '../../src/shared/contract/answer-sheet';
import { answerSheetSpecSchema } from '../../src/shared/contract/answer-sheet';
import type { PageReading, RecognitionProblemKind } from '../../src/shared/contract/recognition';
import { ENGINE_PAGE_KINDS, heldBackForReview } from '../../server/services/marking/page-settlement';
import { layoutAnswerSheet } from '../../src/shared/lib/answer-sheet-layout';
import { calibrateSheet } from '../../server/services/recognition/sheet-calibration';
import { seededRandom } from '../../src/shared/lib/simulated-scan';
import { createSheetPool } from '../../tests/support/synthetic-sheet-pool';
import {
  randomMarks,
  standardSpec,
  twoPageSpec,
  type Degradation,
  type SyntheticSheet,
  type SyntheticSheetOptions,
} from '../../tests/support/synthetic-sheets';

const SHEETS = Number(process.env.RECOGNITION_BENCH_SHEETS ?? 520);
/** Only the accuracy part (a quick look while tuning). */
const ACCURACY_ONLY = process.env.RECOGNITION_BENCH_ACCURACY_ONLY === '1';
const RUN_PAGES = Number(process.env.RECOGNITION_BENCH_PAGES ?? 2000);
const THREADS = availableParallelism();
/** The CPU time of the stand-in request the main thread serves while the workers recognise. */
const TASK_CPU_MS = 10;
const GOALS = { bubbles: 0.999, cleanReview: 0.02, sheetsPerMinute: 600 };

const specs: { name: string; spec: AnswerSheetSpec; share: number }[] = [
  { name: 'A4 standard', spec: standardSpec(4101, 'A4'), share: 0.8 },
  {
    name: 'A4 objective-heavy',
    spec: answerSheetSpecSchema.parse({
      homeworkId: 4102,
      title: '八年级英语单元测验',
      subjectName: '英语',
      paperSize: 'A4',
      questions: [
        ...Array.from({ length: 40 }, (_, i) => ({ no: i + 1, type: 'single', score: 1.5 })),
        ...Array.from({ length: 10 }, (_, i) => ({ no: 41 + i, type: 'multiple', score: 3 })),
        ...Array.from({ length: 10 }, (_, i) => ({ no: 51 + i, type: 'judge', score: 1 })),
        { no: 61, type: 'subjective', score: 10, lines: 5 },
      ],
    }),
    share: 0.1,
  },
  { name: 'A3 standard', spec: standardSpec(4103, 'A3'), share: 0.1 },
];
const TWO_PAGE_SPEC = twoPageSpec();
const templates = new Map<number, AnswerSheetTemplate>(
  [...specs.map((s) => s.spec), TWO_PAGE_SPEC].map((spec) => [spec.homeworkId, layoutAnswerSheet(spec)]),
);
const OTHER_HOMEWORK = 4999;

/** The sheets of the accuracy set: the scanner mix, then one group per way of marking or scanning that beat earlier engines (issue 18). */
const CASE_KINDS = [
  'tick',
  'cross',
  'faint1bit',
  'columnStreak',
  'strayLine',
  'halfErased',
  'allFaint',
  'allTick',
  'photo',
  'strayOverMark',
  'strayDiagonal',
  'ring',
  'dot',
  'oneBitThreshold',
  'oneBitDither',
] as const;
type CaseKind = (typeof CASE_KINDS)[number];
/**
 * Two pages of one student's sheet, read with each other's calibration: all faint on a 1-bit scan (kept as
 * a grey JPEG), all ticks, all faint, all faint on a 1-bit scan delivered as the scanner's 1-bit file.
 */
const SHEET_KINDS = ['sheetFaint1bit', 'sheetTick', 'sheetFaint', 'sheetOneBit'] as const;
/**
 * Kinds added later: their sheets are drawn after all the others, so the others' sheets stay as they were.
 * The 1-bit kinds above (`faint1bit`, `sheetFaint1bit`) keep the scanner's 1-bit image as a grey JPEG (a
 * station that stores scans as JPEG); these deliver the scanner's own file, a 1-bit PNG or CCITT G4 TIFF,
 * thresholded or dithered.
 */
const LATE_KINDS: readonly string[] = ['oneBitThreshold', 'oneBitDither', 'sheetOneBit'];
type SheetKind = (typeof SHEET_KINDS)[number];
type Kind = 'clean' | 'degraded' | 'blank' | 'other' | CaseKind | SheetKind;
const KINDS: readonly Kind[] = ['clean', 'degraded', ...CASE_KINDS, ...SHEET_KINDS, 'blank', 'other'];
/** Sheets per case kind (RECOGNITION_BENCH_CASES). */
const CASES = Number(process.env.RECOGNITION_BENCH_CASES ?? 40);
const ONLY_KINDS = process.env.RECOGNITION_BENCH_KINDS?.split(',');
/** RECOGNITION_BENCH_DUMP_DIR: where to write the JPEG of every sheet with a wrong answer scored unseen. */
const DUMP_DIR = process.env.RECOGNITION_BENCH_DUMP_DIR;
/** `sheet`: the pages of one student's sheet share it (read with each other's calibration); `pages` of them. */
type Plan = { kind: Kind; spec: AnswerSheetSpec; options: SyntheticSheetOptions; sheet?: { id: number; pages: number } };

const uniform = (random: () => number, low: number, high: number) => low + random() * (high - low);

function plan(count: number): Plan[] {
  const random = seededRandom(2026);
  const plans: Plan[] = [];
  for (let i = 0; i < count; i += 1) {
    const pick = random();
    let acc = 0;
    const entry = specs.find((s) => (acc += s.share) >= pick) ?? specs[0]!;
    const template = templates.get(entry.spec.homeworkId)!;
    const pageIndex = Math.floor(random() * template.pages.length);
    const studentNo = Math.floor(random() * 7);
    const student =
      studentNo === 0 ? undefined : { name: `学生${studentNo}`, code: `20260101${String(studentNo).padStart(2, '0')}` };
    const seed = 1000 + i;
    const special = i % 100;
    if (special === 50) {
      plans.push({
        kind: 'blank',
        spec: entry.spec,
        options: { blank: true, seed, degrade: { rotationDeg: uniform(random, -1, 1) } },
      });
      continue;
    }
    const page = template.pages[pageIndex]!;
    const writeIn = page.regions.filter(() => random() < 0.8).map((r) => r.questionNo);
    const clean = i % 5 < 2;
    const upsideDown = random() < 0.15;
    const options: SyntheticSheetOptions = clean
      ? {
          pageIndex,
          student,
          writeIn,
          seed,
          marks: randomMarks(page, random, { blankQuestion: 0.05 }),
          degrade: {
            rotationDeg: uniform(random, -1.5, 1.5),
            scale: uniform(random, 0.99, 1.01),
            shiftMm: { x: uniform(random, -1, 1), y: uniform(random, -1, 1) },
            upsideDown,
            noise: uniform(random, 2, 4),
            specks: 300,
          },
        }
      : {
          pageIndex,
          student,
          writeIn,
          seed,
          marks: randomMarks(page, random, { faint: 0.1, partial: 0.1, erased: 0.1, extraOnSingle: 0.03, blankQuestion: 0.05 }),
          degrade: {
            rotationDeg: uniform(random, -3, 3),
            scale: uniform(random, 0.97, 1.03),
            stretchY: uniform(random, 0.99, 1.01),
            shiftMm: { x: uniform(random, -2, 2), y: uniform(random, -2, 2) },
            upsideDown,
            paper: uniform(random, 225, 250),
            toner: uniform(random, 12, 50),
            noise: uniform(random, 2, 8),
            specks: Math.floor(uniform(random, 100, 1000)),
            streaks: random() < 0.1 ? 1 : 0,
            blur: random() < 0.5 ? uniform(random, 0.3, 1.2) : 0,
            jpegQuality: Math.round(uniform(random, 70, 90)),
          },
        };
    if (special === 75) options.qrHomeworkId = OTHER_HOMEWORK;
    plans.push({ kind: special === 75 ? 'other' : clean ? 'clean' : 'degraded', spec: entry.spec, options });
  }
  for (const late of [false, true]) {
    for (const kind of CASE_KINDS) {
      if (LATE_KINDS.includes(kind) !== late) continue;
      for (let i = 0; i < CASES; i += 1) plans.push(casePlan(kind, i, random));
    }
    for (const kind of SHEET_KINDS) {
      if (LATE_KINDS.includes(kind) !== late) continue;
      for (let i = 0; i < CASES / 2; i += 1) plans.push(...sheetPlans(kind, i, random));
    }
  }
  return ONLY_KINDS ? plans.filter((p) => ONLY_KINDS.includes(p.kind)) : plans;
}

/** A sheet of one case kind: a scanner's ordinary degradations plus the kind's own marks or defect. */
function casePlan(kind: CaseKind, i: number, random: () => number): Plan {
  const entry = i % 5 === 4 ? specs[1]! : specs[0]!;
  const template = templates.get(entry.spec.homeworkId)!;
  const page = template.pages[0]!;
  const seed = 20000 + CASE_KINDS.indexOf(kind) * 1000 + i;
  const student = { name: `学生${(i % 6) + 1}`, code: `20260101${String((i % 6) + 1).padStart(2, '0')}` };
  const writeIn = page.regions.map((r) => r.questionNo);
  const mix: Record<CaseKind, Parameters<typeof randomMarks>[2]> = {
    tick: { tick: 0.3 },
    cross: { cross: 0.3 },
    faint1bit: { faint: 0.4 },
    columnStreak: {},
    strayLine: { stray: 0.6 },
    strayOverMark: { tick: 0.35, faint: 0.15, stray: 0.6, strayOnMark: 0.3 },
    strayDiagonal: { tick: 0.3, faint: 0.1, stray: 0.6, strayOnMark: 0.3, diagonal: 1 },
    halfErased: { halfErased: 0.2 },
    allFaint: { faint: 1 },
    allTick: { tick: 1 },
    photo: { faint: 0.05, partial: 0.05 },
    ring: { ring: 0.4 },
    dot: { dot: 0.4 },
    oneBitThreshold: { faint: 0.4 },
    oneBitDither: { faint: 0.4 },
  };
  const degrade: Degradation = {
    rotationDeg: uniform(random, -2, 2),
    scale: uniform(random, 0.985, 1.015),
    shiftMm: { x: uniform(random, -1.5, 1.5), y: uniform(random, -1.5, 1.5) },
    upsideDown: random() < 0.15,
    noise: uniform(random, 2, 5),
    specks: 300,
    blur: random() < 0.5 ? uniform(random, 0.3, 0.9) : 0,
    jpegQuality: Math.round(uniform(random, 75, 90)),
  };
  if (kind === 'faint1bit') degrade.bilevel = uniform(random, 135, 150);
  // The scanner's own 1-bit file, half of them PNG and half G4 TIFF: thresholded (where the faint
  // pencil keeps only speckle) or dithered.
  if (kind === 'oneBitThreshold') degrade.bilevel = uniform(random, 120, 160);
  if (kind === 'oneBitThreshold' || kind === 'oneBitDither') {
    degrade.oneBitFile = { format: i % 2 === 0 ? 'tiff' : 'png', dither: kind === 'oneBitDither' };
  }
  if (kind === 'columnStreak') degrade.columnStreaks = 1 + Math.floor(random() * 2);
  if (kind === 'photo') {
    degrade.photo = {
      tiltDeg: uniform(random, 0, 20),
      tiltAzimuthDeg: uniform(random, 0, 360),
      rollDeg: uniform(random, -8, 8),
      fill: uniform(random, 0.8, 0.92),
      shadow: random() < 0.6 ? uniform(random, 0.2, 0.45) : 0,
      gradient: uniform(random, 0, 0.3),
      curlMm: random() < 0.4 ? uniform(random, 3, 10) : 0,
      blur: uniform(random, 0.3, 1.5),
    };
  }
  return {
    kind,
    spec: entry.spec,
    options: { student, writeIn, seed, marks: randomMarks(page, random, { blankQuestion: 0.05, ...mix[kind] }), degrade },
  };
}

/** Both pages of one student's two-page sheet: the same pencil and scanner, the kind's marks on every question. */
function sheetPlans(kind: SheetKind, i: number, random: () => number): Plan[] {
  const template = templates.get(TWO_PAGE_SPEC.homeworkId)!;
  const student = { name: `学生${(i % 6) + 1}`, code: `20260102${String((i % 6) + 1).padStart(2, '0')}` };
  const degrade: Degradation = {
    rotationDeg: uniform(random, -1.5, 1.5),
    scale: uniform(random, 0.99, 1.01),
    noise: uniform(random, 2, 5),
    specks: 300,
    blur: random() < 0.5 ? uniform(random, 0.3, 0.9) : 0,
    jpegQuality: Math.round(uniform(random, 75, 90)),
  };
  if (kind === 'sheetFaint1bit') degrade.bilevel = uniform(random, 135, 150);
  if (kind === 'sheetOneBit') {
    // Thresholded and dithered in turn, each student's pages from one scanner.
    const dither = i % 2 === 1;
    if (!dither) degrade.bilevel = uniform(random, 120, 160);
    degrade.oneBitFile = { format: i % 4 < 2 ? 'tiff' : 'png', dither };
  }
  const mix = kind === 'sheetTick' ? { tick: 1 } : { faint: 1 };
  const id = 30000 + SHEET_KINDS.indexOf(kind) * 1000 + i;
  return template.pages.map((page, pageIndex) => ({
    kind,
    spec: TWO_PAGE_SPEC,
    sheet: { id, pages: template.pages.length },
    options: {
      pageIndex,
      student,
      writeIn: page.regions.map((r) => r.questionNo),
      seed: id * 10 + pageIndex,
      marks: randomMarks(page, random, { blankQuestion: 0.05, ...mix }),
      degrade: { ...degrade, upsideDown: random() < 0.15 },
    },
  }));
}

/**
 * Whether the server would hold a question back for review instead of scoring it: the server's own rule
 * (heldBackForReview of server/services/marking/page-settlement.ts, the function settlePage uses), not
 * a copy of it. A page that cannot be placed holds back everything; otherwise a question with a
 * problem of its own, a confidence under LOW_CONFIDENCE, or two marks on a single-choice or judge question.
 */
function heldBack(reading: PageReading, q: ObjectiveQuestionLayout): boolean {
  return heldBackForReview(reading, q, q.type);
}
const PAGE_BLOCKING = ENGINE_PAGE_KINDS;

/** Whether the printed fiducials are all inside the scan (a skewed, enlarged print can lose a corner). */
function fiducialsInside(sheet: SyntheticSheet, template: AnswerSheetTemplate, pageIndex: number): boolean {
  const t = sheet.transform;
  return template.pages[pageIndex]!.fiducials.every((f) =>
    [-1, 1].every((dx) =>
      [-1, 1].every((dy) => {
        const x = f.xMm + (dx * f.sizeMm) / 2;
        const y = f.yMm + (dy * f.sizeMm) / 2;
        const px = t.a * x + t.c * y + t.e;
        const py = t.b * x + t.d * y + t.f;
        return px >= 0 && py >= 0 && px < sheet.width && py < sheet.height;
      }),
    ),
  );
}

const pct = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(2)} %`);

async function accuracy() {
  const plans = plan(SHEETS);
  const pool = createSheetPool(THREADS);
  const engine = createRecognitionEngine({ threads: THREADS });
  const resolve = async (qr: { homeworkId: number } | null) => (qr ? (templates.get(qr.homeworkId) ?? null) : null);

  const stats = {
    pages: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
    review: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
    perKind: new Map(
      KINDS.map((k) => [
        k,
        { pages: 0, questions: 0, right: 0, review: 0, single: 0, singleReview: 0, wrongUnseen: 0, located: 0 },
      ]),
    ),
    bubbles: 0,
    bubblesRight: 0,
    bubblesOnLocated: 0,
    bubblesRightOnLocated: 0,
    notLocated: 0,
    notLocatedClipped: 0,
    clipped: 0,
    clippedLocated: 0,
    questions: 0,
    wrongQuestions: 0,
    wrongUnreviewed: 0,
    wrongUnreviewedPageLevel: 0,
    blankFlagged: 0,
    otherRead: 0,
    rotationRight: 0,
    located: 0,
    problems: new Map<RecognitionProblemKind, number>(),
    unreviewedExamples: [] as string[],
    notLocatedExamples: [] as string[],
    degradedSingle: 0,
    degradedSingleReview: 0,
    cleanReviewExamples: [] as string[],
  };

  const evaluate = (p: Plan, sheet: SyntheticSheet, reading: PageReading) => {
    stats.pages[p.kind] += 1;
    const pageLayout =
      p.kind === 'blank' || p.kind === 'other' ? null : templates.get(p.spec.homeworkId)!.pages[p.options.pageIndex ?? 0]!;
    // To review: the server blocks the page or holds back one of its questions (a page-level note it ignores does not count).
    const toReview =
      reading.problems.some((x) => PAGE_BLOCKING.has(x.kind)) ||
      (pageLayout?.objective.some((q) => heldBack(reading, q)) ?? false);
    if (toReview) stats.review[p.kind] += 1;
    const kindStats = stats.perKind.get(p.kind)!;
    kindStats.pages += 1;
    if (toReview) kindStats.review += 1;
    for (const problem of reading.problems) stats.problems.set(problem.kind, (stats.problems.get(problem.kind) ?? 0) + 1);
    if (p.kind === 'blank') {
      if (reading.problems.some((x) => x.kind === 'blankPage')) stats.blankFlagged += 1;
      return;
    }
    if (p.kind === 'other') {
      if (reading.qr?.homeworkId === OTHER_HOMEWORK && reading.objective.length === 0) stats.otherRead += 1;
      return;
    }
    const template = templates.get(p.spec.homeworkId)!;
    const pageIndex = p.options.pageIndex ?? 0;
    const inside = sheet.photo ? sheet.photo.fiducialsInside : fiducialsInside(sheet, template, pageIndex);
    if (!inside) stats.clipped += 1;
    const located = reading.transform !== null && reading.objective.length > 0;
    if (located) {
      stats.located += 1;
      if (!inside) stats.clippedLocated += 1;
      if (reading.rotation === (sheet.upsideDown ? 180 : 0)) stats.rotationRight += 1;
    } else {
      stats.notLocated += 1;
      if (!inside) stats.notLocatedClipped += 1;
      if (DUMP_DIR) writeFileSync(`${DUMP_DIR}/unlocated-seed-${p.options.seed}.jpg`, sheet.jpeg);
      if (stats.notLocatedExamples.length < 5) {
        stats.notLocatedExamples.push(
          `seed ${p.options.seed} ${JSON.stringify(p.options.degrade)}: ${JSON.stringify(reading.problems)}`,
        );
      }
    }
    const doubleMarked = template.pages[pageIndex]!.objective.some(
      (q) => q.type !== 'multiple' && (sheet.expected.get(q.questionNo)?.length ?? 0) > 1,
    );
    if (p.kind === 'degraded' && !doubleMarked) {
      stats.degradedSingle += 1;
      if (toReview) stats.degradedSingleReview += 1;
    }
    if (!doubleMarked) {
      kindStats.single += 1;
      if (toReview) kindStats.singleReview += 1;
    }
    if (located) kindStats.located += 1;
    const byNo = new Map(reading.objective.map((o) => [o.questionNo, o]));
    for (const q of template.pages[pageIndex]!.objective) {
      const truth = new Set(sheet.expected.get(q.questionNo) ?? []);
      const read = byNo.get(q.questionNo);
      const marked = new Set(read?.marked ?? []);
      stats.questions += 1;
      kindStats.questions += 1;
      if (read && [...truth].sort().join('') === [...marked].sort().join('')) kindStats.right += 1;
      for (const o of q.options) {
        const right = read !== undefined && truth.has(o.label) === marked.has(o.label);
        stats.bubbles += 1;
        if (right) stats.bubblesRight += 1;
        if (located) {
          stats.bubblesOnLocated += 1;
          if (right) stats.bubblesRightOnLocated += 1;
        }
      }
      if (!read) continue;
      const wrong = [...truth].sort().join('') !== [...marked].sort().join('');
      if (!wrong) continue;
      stats.wrongQuestions += 1;
      if (!heldBack(reading, q)) {
        stats.wrongUnreviewed += 1;
        kindStats.wrongUnseen += 1;
        if (DUMP_DIR) writeFileSync(`${DUMP_DIR}/seed-${p.options.seed}.jpg`, sheet.jpeg);
        if (stats.unreviewedExamples.filter((e) => e.endsWith(`(${p.kind})`)).length < 2) {
          stats.unreviewedExamples.push(
            `seed ${p.options.seed} q${q.questionNo}: truth ${[...truth].join('') || '-'} read ${[...marked].join('') || '-'} ` +
              `fills ${read.fills.map((f) => `${f.label}=${f.fill}`).join(' ')} conf ${read.confidence} (${p.kind})`,
          );
        }
      }
      if (!toReview) stats.wrongUnreviewedPageLevel += 1;
    }
    if (toReview && !doubleMarked && p.kind !== 'clean' && process.env.RECOGNITION_BENCH_WHY === '1') {
      if (DUMP_DIR) writeFileSync(`${DUMP_DIR}/review-seed-${p.options.seed}.jpg`, sheet.jpeg);
      console.log(
        `    ${p.kind} page to review (seed ${p.options.seed}): ` +
          reading.problems.map((x) => `${x.kind}${x.questionNo ?? ''} ${x.detail ?? ''}`).join('; '),
      );
    }
    if (p.kind === 'clean' && toReview && stats.cleanReviewExamples.length < 5) {
      stats.cleanReviewExamples.push(
        `seed ${p.options.seed}: ${reading.problems.map((x) => `${x.kind}${x.questionNo ?? ''} ${x.detail ?? ''}`).join('; ')}`,
      );
    }
  };

  /** What a page's reading sends to review, and the wrong answers it would score unseen (pages of a two-page sheet). */
  const outcome = (p: Plan, sheet: SyntheticSheet, reading: PageReading) => {
    const layout = templates.get(p.spec.homeworkId)!.pages[p.options.pageIndex ?? 0]!;
    const toReview =
      reading.problems.some((x) => PAGE_BLOCKING.has(x.kind)) || layout.objective.some((q) => heldBack(reading, q));
    const wrongUnseen = layout.objective.filter((q) => {
      const read = reading.objective.find((o) => o.questionNo === q.questionNo);
      const truth = [...(sheet.expected.get(q.questionNo) ?? [])].sort().join('');
      return read !== undefined && truth !== [...read.marked].sort().join('') && !heldBack(reading, q);
    }).length;
    return { toReview, wrongUnseen };
  };
  const pooling = new Map<
    Kind,
    { pages: number; alone: number; pooled: number; wrongAlone: number; wrongPooled: number; released: number }
  >();
  /** Pages of two-page sheets waiting for the sheet's other page. */
  const waiting = new Map<number, { p: Plan; sheet: SyntheticSheet; reading: PageReading }[]>();
  const arrived = (p: Plan, sheet: SyntheticSheet, reading: PageReading) => {
    if (!p.sheet) return evaluate(p, sheet, reading);
    const pages = [...(waiting.get(p.sheet.id) ?? []), { p, sheet, reading }];
    if (pages.length < p.sheet.pages) {
      waiting.set(p.sheet.id, pages);
      return;
    }
    waiting.delete(p.sheet.id);
    // Read with each other's calibration, as the server settles a student's pages.
    const pooled = calibrateSheet(pages.map((page) => page.reading));
    const k = pooling.get(p.kind) ?? { pages: 0, alone: 0, pooled: 0, wrongAlone: 0, wrongPooled: 0, released: 0 };
    pages.forEach((page, i) => {
      const alone = outcome(page.p, page.sheet, page.reading);
      const withPool = outcome(page.p, page.sheet, pooled[i]!);
      k.pages += 1;
      k.alone += alone.toReview ? 1 : 0;
      k.pooled += withPool.toReview ? 1 : 0;
      k.wrongAlone += alone.wrongUnseen;
      k.wrongPooled += withPool.wrongUnseen;
      k.released += pooled[i]!.calibration?.released?.length ?? 0;
      evaluate(page.p, page.sheet, pooled[i]!);
    });
    pooling.set(p.kind, k);
  };

  const started = performance.now();
  // A window of pages in flight: generation and recognition overlap, memory stays bounded.
  const window = THREADS * 3;
  let next = 0;
  const inFlight = new Set<Promise<void>>();
  const startOne = (p: Plan) => {
    const job = pool
      .render(p.spec, p.options)
      .then(async (sheet) => arrived(p, sheet, (await engine.recognize(sheet.jpeg, resolve)).reading))
      .finally(() => inFlight.delete(job));
    inFlight.add(job);
  };
  while (next < plans.length || inFlight.size > 0) {
    while (next < plans.length && inFlight.size < window) startOne(plans[next++]!);
    await Promise.race(inFlight);
  }
  await Promise.all([pool.close(), engine.close()]);
  const seconds = (performance.now() - started) / 1000;

  const read = KINDS.filter((k) => k !== 'blank' && k !== 'other').reduce((sum, k) => sum + stats.pages[k], 0);
  console.log(
    `recognition accuracy: ${plans.length} sheets (${stats.pages.clean} clean, ${stats.pages.degraded} degraded, ` +
      `${stats.pages.blank} blank, ${stats.pages.other} of another homework) in ${seconds.toFixed(0)} s (generation included)`,
  );
  console.log(
    `  bubbles right: ${stats.bubblesRight} / ${stats.bubbles} (${pct(stats.bubblesRight, stats.bubbles)}; goal ≥ 99.9 %: ` +
      `${stats.bubblesRight / stats.bubbles >= GOALS.bubbles ? 'met' : 'NOT met'}); bubbles of unlocated pages count as wrong`,
  );
  console.log(
    `  on located pages: ${stats.bubblesRightOnLocated} / ${stats.bubblesOnLocated} (${pct(stats.bubblesRightOnLocated, stats.bubblesOnLocated)})`,
  );
  console.log(
    `  pages located: ${stats.located} / ${read}; orientation right on ${stats.rotationRight} of them; ` +
      `fiducial cut off by the scan edge on ${stats.clipped} pages (located anyway: ${stats.clippedLocated}); ` +
      `not located: ${stats.notLocated} (of them with a fiducial cut off: ${stats.notLocatedClipped})`,
  );
  for (const example of stats.notLocatedExamples) console.log(`    not located: ${example}`);
  console.log(
    `  pages to review: clean ${stats.review.clean} / ${stats.pages.clean} (${pct(stats.review.clean, stats.pages.clean)}; goal < 2 %: ` +
      `${stats.review.clean / Math.max(1, stats.pages.clean) < GOALS.cleanReview ? 'met' : 'NOT met'}), ` +
      `degraded ${stats.review.degraded} / ${stats.pages.degraded} (${pct(stats.review.degraded, stats.pages.degraded)}), ` +
      `all ${KINDS.reduce((sum, k) => sum + stats.review[k], 0)} / ${plans.length}; ` +
      `degraded pages without a deliberate double mark on a single-choice question: ${stats.degradedSingleReview} / ${stats.degradedSingle} ` +
      `(${pct(stats.degradedSingleReview, stats.degradedSingle)})`,
  );
  console.log(
    `  questions read wrong: ${stats.wrongQuestions} of ${stats.questions}; entering scores without review: ` +
      `${stats.wrongUnreviewed} (goal 0: ${stats.wrongUnreviewed === 0 ? 'met' : 'NOT met'}; on pages with no problem at all: ${stats.wrongUnreviewedPageLevel})`,
  );
  for (const example of stats.unreviewedExamples) console.log(`    unreviewed: ${example}`);
  console.log(`  problems raised: ${[...stats.problems].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
  for (const example of stats.cleanReviewExamples) console.log(`    clean page to review: ${example}`);
  console.log(
    '  per kind of sheet (questions right; pages to review, all and beyond real double marks; wrong answers scored unseen, goal 0):',
  );
  console.log(
    `    ${'kind'.padEnd(13)}${'pages'.padStart(6)}${'located'.padStart(9)}${'questions right'.padStart(24)}${'to review'.padStart(18)}${'review w/o double'.padStart(22)}${'wrong unseen'.padStart(14)}`,
  );
  for (const [kind, k] of stats.perKind) {
    if (k.pages === 0) continue;
    console.log(
      `    ${kind.padEnd(13)}${String(k.pages).padStart(6)}${String(k.located).padStart(9)}` +
        `${`${k.right}/${k.questions} (${pct(k.right, k.questions)})`.padStart(24)}` +
        `${`${k.review} (${pct(k.review, k.pages)})`.padStart(18)}` +
        `${`${k.singleReview}/${k.single} (${pct(k.singleReview, k.single)})`.padStart(22)}${String(k.wrongUnseen).padStart(14)}`,
    );
  }
  if (pooling.size > 0) {
    console.log(
      "  two-page sheets (page 2 with five objective questions), the rows above read with the student's other page as calibration:",
    );
    for (const [kind, k] of pooling) {
      console.log(
        `    ${kind.padEnd(15)} pages to review: alone ${k.alone} / ${k.pages} (${pct(k.alone, k.pages)}), with the other page ` +
          `${k.pooled} / ${k.pages} (${pct(k.pooled, k.pages)}); questions released ${k.released}; wrong unseen: alone ${k.wrongAlone}, with ${k.wrongPooled}`,
      );
    }
  }
  console.log(
    `  blank pages flagged blankPage: ${stats.blankFlagged} / ${stats.pages.blank}; pages of another homework read as such: ` +
      `${stats.otherRead} / ${stats.pages.other}`,
  );
}

async function throughput() {
  // A handful of distinct A4 pages, typical ones, reused for the long run.
  const pool = createSheetPool(THREADS);
  const spec = specs[0]!.spec;
  const template = templates.get(spec.homeworkId)!;
  const random = seededRandom(7);
  const jpegs: Buffer[] = [];
  for (let i = 0; i < 8; i += 1) {
    const page = template.pages[0]!;
    const sheet = await pool.render(spec, {
      student: { name: `学生${i + 1}`, code: `20260101${i + 1}` },
      marks: randomMarks(page, random),
      writeIn: page.regions.map((r) => r.questionNo),
      seed: 500 + i,
      degrade: { rotationDeg: uniform(random, -2, 2), scale: uniform(random, 0.98, 1.02), upsideDown: i % 4 === 3, noise: 3 },
    });
    jpegs.push(sheet.jpeg);
  }
  await pool.close();
  const meanKiB = jpegs.reduce((sum, j) => sum + j.length, 0) / jpegs.length / 1024;

  // The bare decode, one thread, for comparison: sharp's full RGB decode and the engine's grey decode.
  sharp.cache(false);
  const timeEach = async (run: (jpeg: Buffer) => Promise<unknown>) => {
    const times: number[] = [];
    for (let r = 0; r < 3; r += 1) {
      for (const jpeg of jpegs) {
        const started = performance.now();
        await run(jpeg);
        times.push(performance.now() - started);
      }
    }
    return median(times);
  };
  const rgbDecode = await timeEach((jpeg) => sharp(jpeg).raw().toBuffer());
  const greyDecode = await timeEach((jpeg) => decodeGrey(jpeg));

  // Iterations of a busy loop that take TASK_CPU_MS on an idle thread.
  let spins = 1e6;
  const spin = () => {
    let x = 0;
    for (let i = 0; i < spins; i += 1) x = (x * 31 + i) % 1_000_003;
    return x;
  };
  const timedRequest = () => {
    const wallStart = performance.now();
    spin();
    return performance.now() - wallStart;
  };
  spins = Math.round((spins * TASK_CPU_MS) / median(Array.from({ length: 20 }, timedRequest)));
  const idleRequest = median(Array.from({ length: 20 }, timedRequest));

  const before = process.memoryUsage.rss();
  const engine = createRecognitionEngine({ threads: THREADS });
  const resolve = async () => template;
  // Warm up every worker (module load, wasm) before timing.
  await Promise.all(jpegs.map((jpeg) => engine.recognize(jpeg, resolve)));
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(process.memoryUsage.rss()), 100);
  // The main thread's responsiveness while the workers recognise (on a server it answers every request).
  // A stand-in request every 50 ms: work that takes TASK_CPU_MS on the idle main thread (timed before the
  // run, the workers then idle), timed on the wall clock while they recognise.
  const taskWall: number[] = [];
  const requests = setInterval(() => taskWall.push(timedRequest()), 50);
  rss.push(process.memoryUsage.rss());
  const elapsed: number[] = [];
  // CPU time of the whole process (its worker threads included): fair under a shared machine's load, where wall time is not.
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let failures = 0;
  await Promise.all(
    Array.from({ length: RUN_PAGES }, (_, i) =>
      engine.recognize(jpegs[i % jpegs.length]!, resolve).then(
        ({ reading }) => {
          elapsed.push(reading.elapsedMs);
          if (reading.transform === null) failures += 1;
        },
        () => {
          failures += 1;
        },
      ),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerPage = (cpu.user + cpu.system) / 1000 / RUN_PAGES;
  clearInterval(sampler);
  clearInterval(requests);
  rss.push(process.memoryUsage.rss());
  await engine.close();

  const perSecond = RUN_PAGES / seconds;
  const perMinute = perSecond * 60;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `recognition throughput: ${RUN_PAGES} A4 300 dpi pages (2480x3507 JPEG, ${jpegs.length} distinct, mean ${meanKiB.toFixed(0)} KiB) ` +
      `on ${THREADS} worker threads: ${seconds.toFixed(1)} s, ${perSecond.toFixed(1)} pages/s, ${perMinute.toFixed(0)} sheets/minute ` +
      `(goal ≥ ${GOALS.sheetsPerMinute}: ${perMinute >= GOALS.sheetsPerMinute ? 'met' : 'NOT met'}); ${(perSecond / THREADS).toFixed(1)} pages/s per core; ` +
      `pages not located: ${failures}`,
  );
  console.log(
    `  CPU time per page (process.cpuUsage, all threads): ${cpuMsPerPage.toFixed(1)} ms, so ${((60_000 / cpuMsPerPage) * THREADS).toFixed(0)} ` +
      `sheets/minute on ${THREADS} otherwise idle cores`,
  );
  console.log(
    `  engine time per page in a worker: median ${median(elapsed).toFixed(0)} ms, p95 ${quantile(elapsed, 0.95).toFixed(0)} ms; ` +
      `bare JPEG decode per page (one thread): sharp RGB ${rgbDecode.toFixed(0)} ms, the engine's grey decode ${greyDecode.toFixed(0)} ms`,
  );
  console.log(
    `  the main thread while recognising (the workers run niced, so requests are served first): a request of ` +
      `${idleRequest.toFixed(1)} ms on an idle thread took p50 ${quantile(taskWall, 0.5).toFixed(1)} ms, p95 ${quantile(taskWall, 0.95).toFixed(1)} ms`,
  );
  const third = Math.floor(rss.length / 3);
  console.log(
    `  process RSS before starting the engine ${mb(before)}; over the run (${rss.length} samples every 100 ms): first ${mb(rss[0]!)}, last ${mb(rss.at(-1)!)}, ` +
      `max ${mb(Math.max(...rss))}; max of the first third ${mb(Math.max(...rss.slice(0, third)))}, of the last third ${mb(Math.max(...rss.slice(-third)))}`,
  );
  console.log(
    `  load average at the end: ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores shared with others)`,
  );
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

// Throughput first, in a process that has not yet generated hundreds of sheets: its RSS is the engine's.
if (!ACCURACY_ONLY) await throughput();
if (process.env.RECOGNITION_BENCH_THROUGHPUT_ONLY !== '1') await accuracy();
