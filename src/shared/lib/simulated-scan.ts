/**
 * What a simulated scanner feeds (the demo and test stand-in for a real scanner): a deterministic plan
 * of pages from an answer sheet template — per student and template page, with some bubbles filled,
 * handwriting-like strokes in the subjective regions, a slight rotation, some pages upside down, one
 * blank page and one page of another homework. Pure: the drawing is the simulated driver's.
 */
import type { AnswerSheetSpec, AnswerSheetTemplate, MmRect } from '../contract/answer-sheet';
import { layoutAnswerSheet } from './answer-sheet-layout';

export type SimulatedStudent = { name: string; code: string };

export type SimulatedSheetPage = {
  kind: 'sheet';
  homeworkId: number;
  /** 0-based index into the template's pages. */
  pageIndex: number;
  student: SimulatedStudent;
  /** Filled bubbles: question number and option labels. */
  filled: { questionNo: number; labels: string[] }[];
  /** Pen strokes, each a polyline in millimetres. */
  strokes: { xMm: number; yMm: number }[][];
  rotationDeg: number;
  upsideDown: boolean;
  noiseSeed: number;
  /** The student's own sheet (a personalised set), when it is not the homework's. */
  sheet?: { spec: AnswerSheetSpec; template: AnswerSheetTemplate };
};
export type SimulatedBlankPage = { kind: 'blank'; rotationDeg: number; upsideDown: false; noiseSeed: number };
export type SimulatedPage = SimulatedSheetPage | SimulatedBlankPage;

export type SimulatedBatchOptions = {
  homeworkId: number;
  spec: AnswerSheetSpec;
  students: readonly SimulatedStudent[];
  pageCount: number;
  seed?: number;
  /**
   * false: feed each student's sheet once and stop when they are done (a class's students still to
   * scan); true (default): go round the students again until pageCount pages are fed.
   */
  wrap?: boolean;
  /** Students already scanned: sometimes (one feed in two) one page of one of them again, a duplicate. */
  duplicates?: readonly SimulatedStudent[];
  /** Students with a sheet of their own (a personalised set), by 学号: their pages are drawn from it. */
  studentSpecs?: ReadonlyMap<string, AnswerSheetSpec>;
  /**
   * Only when asked (a test closing the re-practice loop): the key of each student's own sheet, by 学号,
   * then question number. Those students fill exactly the key on every objective question instead of
   * random answers; everyone else is drawn as before, from the same random sequence.
   */
  answerKeys?: ReadonlyMap<string, ReadonlyMap<number, readonly string[]>>;
};

/** A small fast seeded PRNG (mulberry32): the same seed gives the same batch. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Some fake handwriting: a few wavy lines of "letters" across the upper part of a region. */
export function handwriting(region: MmRect, random: () => number): { xMm: number; yMm: number }[][] {
  const strokes: { xMm: number; yMm: number }[][] = [];
  const lines = 1 + Math.floor(random() * Math.max(1, Math.min(4, (region.hMm - 8) / 8)));
  for (let line = 0; line < lines; line += 1) {
    const baseline = region.yMm + 12 + line * 8;
    let x = region.xMm + 4;
    const end = region.xMm + region.wMm * (0.45 + random() * 0.5) - 4;
    while (x < end) {
      const glyph: { xMm: number; yMm: number }[] = [];
      const width = 2 + random() * 2.5;
      for (let step = 0; step <= 6; step += 1) {
        glyph.push({ xMm: x + (width * step) / 6, yMm: baseline - 1 - random() * 3.5 });
      }
      strokes.push(glyph);
      x += width + 0.8 + random() * 1.5;
    }
  }
  return strokes;
}

function sheetPage(
  template: AnswerSheetTemplate,
  homeworkId: number,
  pageIndex: number,
  student: SimulatedStudent,
  random: () => number,
  key?: ReadonlyMap<number, readonly string[]>,
): SimulatedSheetPage {
  const page = template.pages[pageIndex]!;
  const filled = key
    ? page.objective.flatMap((q) => {
        const labels = key.get(q.questionNo);
        return labels && labels.length > 0 ? [{ questionNo: q.questionNo, labels: [...labels] }] : [];
      })
    : page.objective
        .filter(() => random() < 0.92)
        .map((q) => {
          const labels = q.options.map((o) => o.label);
          const first = labels[Math.floor(random() * labels.length)]!;
          const second = labels[Math.floor(random() * labels.length)]!;
          return { questionNo: q.questionNo, labels: q.type === 'multiple' && second !== first ? [first, second] : [first] };
        });
  const strokes = page.regions.filter(() => random() < 0.85).flatMap((region) => handwriting(region, random));
  return {
    kind: 'sheet',
    homeworkId,
    pageIndex,
    student,
    filled,
    strokes,
    rotationDeg: (random() - 0.5) * 3,
    upsideDown: random() < 0.15,
    noiseSeed: Math.floor(random() * 2 ** 31),
  };
}

/**
 * The pages a simulated feeder delivers, in order: every template page of every student in turn, with
 * one blank page and one page of another homework (homework id + 1) mixed in when there is room, and
 * now and then a page of a student already scanned (a duplicate) when `duplicates` names some.
 */
export function planSimulatedBatch(options: SimulatedBatchOptions): { template: AnswerSheetTemplate; pages: SimulatedPage[] } {
  const { homeworkId, spec, students, wrap = true, duplicates = [] } = options;
  const random = seededRandom(options.seed ?? 1);
  const template = layoutAnswerSheet({ ...spec, homeworkId });
  const own = new Map<string, { spec: AnswerSheetSpec; template: AnswerSheetTemplate }>();
  for (const [code, ownSpec] of options.studentSpecs ?? []) {
    own.set(code, { spec: ownSpec, template: layoutAnswerSheet({ ...ownSpec, homeworkId }) });
  }
  const templateOf = (student: SimulatedStudent) => own.get(student.code)?.template ?? template;
  const pageOf = (homework: number, pageIndex: number, student: SimulatedStudent): SimulatedSheetPage => {
    const sheet = own.get(student.code);
    const key = sheet ? options.answerKeys?.get(student.code) : undefined;
    const page = sheetPage(sheet?.template ?? template, homework, pageIndex, student, random, key);
    return sheet ? { ...page, sheet } : page;
  };
  const pages: SimulatedPage[] = [];
  const studentList = students.length > 0 ? students : [{ name: '', code: '' }];
  // Every (student, sheet page) in feeding order.
  const slots = studentList.flatMap((student) => templateOf(student).pages.map((_, pageIndex) => ({ student, pageIndex })));
  // Without wrapping, the feed ends with the last student's sheet (plus the extra pages mixed in).
  const sheetPages = wrap ? Infinity : students.length === 0 ? 0 : slots.length;
  const extras = Math.min(2, sheetPages) + (duplicates.length > 0 ? 1 : 0);
  const pageCount = Math.min(options.pageCount, sheetPages + extras);
  if (pageCount === 0) return { template, pages };
  const blankAt = pageCount >= 3 ? 1 + Math.floor(random() * (pageCount - 2)) : -1;
  let foreignAt = pageCount >= 4 ? 1 + Math.floor(random() * (pageCount - 2)) : -1;
  if (foreignAt === blankAt) foreignAt = blankAt + 1 < pageCount ? blankAt + 1 : blankAt - 1;
  const duplicateAt = duplicates.length > 0 && pageCount >= 2 && random() < 0.5 ? Math.floor(random() * pageCount) : -1;
  let next = 0;
  for (let position = 0; position < pageCount; position += 1) {
    if (position === duplicateAt && position !== blankAt && position !== foreignAt) {
      const again = duplicates[Math.floor(random() * duplicates.length)]!;
      pages.push(pageOf(homeworkId, Math.floor(random() * templateOf(again).pages.length), again));
      continue;
    }
    if (next >= sheetPages) break;
    if (position === blankAt) {
      pages.push({
        kind: 'blank',
        rotationDeg: (random() - 0.5) * 2,
        upsideDown: false,
        noiseSeed: Math.floor(random() * 2 ** 31),
      });
      continue;
    }
    const { student, pageIndex } = slots[next % slots.length]!;
    if (position === foreignAt) {
      pages.push(pageOf(homeworkId + 1, pageIndex, student));
      continue;
    }
    pages.push(pageOf(homeworkId, pageIndex, student));
    next += 1;
  }
  return { template, pages };
}
