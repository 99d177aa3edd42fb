import { describe, expect, it } from 'vitest';
import { answerSheetSpecSchema } from '../../../src/shared/contract/answer-sheet';
import { planSimulatedBatch } from '../../../src/shared/lib/simulated-scan';

const spec = answerSheetSpecSchema.parse({
  homeworkId: 31,
  title: '七年级数学周测',
  subjectName: '数学',
  paperSize: 'A4',
  questions: [
    ...Array.from({ length: 10 }, (_, i) => ({ no: i + 1, type: 'single', score: 3 })),
    { no: 11, type: 'multiple', score: 4 },
    { no: 12, type: 'subjective', score: 10 },
  ],
});
const students = Array.from({ length: 12 }, (_, i) => ({ name: `学生${i + 1}`, code: `2026${String(i + 1).padStart(3, '0')}` }));
const options = { homeworkId: 31, spec, students, pageCount: 12, seed: 7 };

describe('simulated scan batch', () => {
  it('is the same batch for the same seed and another for another seed', () => {
    expect(planSimulatedBatch(options)).toEqual(planSimulatedBatch(options));
    expect(planSimulatedBatch({ ...options, seed: 8 }).pages).not.toEqual(planSimulatedBatch(options).pages);
  });

  it('feeds the asked number of pages: one blank, one of another homework, the rest per student in turn', () => {
    const { pages } = planSimulatedBatch(options);
    expect(pages).toHaveLength(12);
    expect(pages.filter((p) => p.kind === 'blank')).toHaveLength(1);
    const sheets = pages.flatMap((p) => (p.kind === 'sheet' ? [p] : []));
    expect(sheets.filter((p) => p.homeworkId === 32)).toHaveLength(1);
    const own = sheets.filter((p) => p.homeworkId === 31);
    expect(own.map((p) => p.student.code)).toEqual(students.slice(0, 10).map((s) => s.code));
  });

  it('fills bubbles that exist, writes inside the subjective region, tilts slightly and turns some pages over', () => {
    const { template, pages } = planSimulatedBatch({
      ...options,
      pageCount: 40,
      students: [...students, ...students, ...students, ...students],
    });
    const layout = template.pages[0]!;
    const region = layout.regions[0]!;
    const sheets = pages.flatMap((p) => (p.kind === 'sheet' ? [p] : []));
    for (const page of sheets) {
      for (const f of page.filled) {
        const q = layout.objective.find((o) => o.questionNo === f.questionNo)!;
        for (const label of f.labels) expect(q.options.map((o) => o.label)).toContain(label);
      }
      for (const point of page.strokes.flat()) {
        expect(point.xMm).toBeGreaterThanOrEqual(region.xMm);
        expect(point.xMm).toBeLessThanOrEqual(region.xMm + region.wMm);
        expect(point.yMm).toBeGreaterThanOrEqual(region.yMm);
        expect(point.yMm).toBeLessThanOrEqual(region.yMm + region.hMm);
      }
      expect(Math.abs(page.rotationDeg)).toBeLessThanOrEqual(1.5);
    }
    const upsideDown = sheets.filter((p) => p.upsideDown).length;
    expect(upsideDown).toBeGreaterThan(0);
    expect(upsideDown).toBeLessThan(sheets.length / 2);
    expect(sheets.filter((p) => p.strokes.length > 0).length).toBeGreaterThan(sheets.length / 2);
  });

  it('continues a class with the students still to scan and stops when they are done (no wrapping round)', () => {
    const rest = students.slice(9);
    const { pages } = planSimulatedBatch({ ...options, students: rest, wrap: false });
    const own = pages.flatMap((p) => (p.kind === 'sheet' && p.homeworkId === 31 ? [p] : []));
    expect(own.map((p) => p.student.code)).toEqual(rest.map((s) => s.code));
    expect(pages.length).toBeLessThanOrEqual(rest.length + 2);
    expect(planSimulatedBatch({ ...options, students: [], wrap: false }).pages).toEqual([]);
  });

  it('now and then feeds a page of a student already scanned again (a deliberate duplicate)', () => {
    const scanned = students.slice(0, 3);
    const rest = students.slice(3);
    const duplicatesPerSeed = Array.from({ length: 20 }, (_, seed) => {
      const { pages } = planSimulatedBatch({ ...options, seed, students: rest, wrap: false, duplicates: scanned });
      return pages.filter((p) => p.kind === 'sheet' && p.homeworkId === 31 && scanned.some((s) => s.code === p.student.code))
        .length;
    });
    expect(Math.max(...duplicatesPerSeed)).toBe(1);
    expect(duplicatesPerSeed.filter((n) => n === 1).length).toBeGreaterThan(3);
    expect(duplicatesPerSeed.filter((n) => n === 0).length).toBeGreaterThan(3);
  });

  it("draws a student with a sheet of their own (a personalised set) on that sheet, the others on the homework's", () => {
    const ownSpec = answerSheetSpecSchema.parse({
      ...spec,
      questions: [
        { no: 1, type: 'judge', score: 5 },
        { no: 2, type: 'blank', score: 5 },
      ],
    });
    const studentSpecs = new Map([[students[1]!.code, ownSpec]]);
    const { pages } = planSimulatedBatch({ ...options, students: students.slice(0, 3), wrap: false, studentSpecs });
    const sheets = pages.flatMap((p) => (p.kind === 'sheet' && p.homeworkId === 31 ? [p] : []));
    expect(sheets.map((p) => p.student.code)).toEqual(students.slice(0, 3).map((s) => s.code));
    const mine = sheets.find((p) => p.student.code === students[1]!.code)!;
    expect(mine.sheet?.spec).toEqual(ownSpec);
    expect(mine.filled.every((f) => f.questionNo === 1 && f.labels.every((l) => l === 'T' || l === 'F'))).toBe(true);
    expect(sheets.filter((p) => p.sheet !== undefined)).toHaveLength(1);
  });

  it('answers own sheets with their key only when asked, and leaves everyone else as without keys', () => {
    const ownSpec = answerSheetSpecSchema.parse({
      ...spec,
      questions: [
        { no: 1, type: 'single', score: 3 },
        { no: 2, type: 'multiple', score: 4 },
        { no: 3, type: 'judge', score: 3 },
        { no: 4, type: 'subjective', score: 8 },
      ],
    });
    const studentSpecs = new Map([
      [students[0]!.code, ownSpec],
      [students[1]!.code, ownSpec],
    ]);
    const base = { ...options, students: students.slice(0, 3), wrap: false, studentSpecs };
    const key = new Map<number, string[]>([
      [1, ['C']],
      [2, ['A', 'D']],
      [3, ['F']],
    ]);
    const withKeys = planSimulatedBatch({ ...base, answerKeys: new Map([[students[0]!.code, key]]) }).pages;
    const without = planSimulatedBatch(base).pages;
    const sheetOf = (pages: typeof withKeys, code: string) =>
      pages.find((p) => p.kind === 'sheet' && p.homeworkId === 31 && p.student.code === code) as Extract<
        (typeof withKeys)[number],
        { kind: 'sheet' }
      >;
    // The student with a key fills exactly the key, every objective question, nothing else.
    expect(sheetOf(withKeys, students[0]!.code).filled).toEqual([
      { questionNo: 1, labels: ['C'] },
      { questionNo: 2, labels: ['A', 'D'] },
      { questionNo: 3, labels: ['F'] },
    ]);
    // An own sheet without a key and an ordinary sheet are drawn at random as before.
    expect(sheetOf(withKeys, students[1]!.code).filled).not.toEqual(sheetOf(withKeys, students[0]!.code).filled);
    expect(sheetOf(without, students[0]!.code).filled).not.toEqual(sheetOf(withKeys, students[0]!.code).filled);
    // Without answerKeys the plan is unchanged by the option's existence (the same seed, the same pages).
    expect(planSimulatedBatch(base)).toEqual(planSimulatedBatch({ ...base, answerKeys: undefined }));
  });
});
