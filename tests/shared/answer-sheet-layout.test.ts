import { describe, expect, it } from 'vitest';
import {
  answerSheetSpecSchema,
  answerSheetTemplateSchema,
  type AnswerSheetPage,
  type AnswerSheetSpec,
  type MmRect,
} from '../../src/shared/contract/answer-sheet';
import {
  defaultWritingLines,
  layoutAnswerSheet,
  sheetPageDecorations,
  SHEET_GEOMETRY,
} from '../../src/shared/lib/answer-sheet-layout';
import { decodeSheetQr, encodeSheetQr } from '../../src/shared/lib/answer-sheet-qr';

function mixedSpec(paperSize: 'A4' | 'A3', subjective = 3): AnswerSheetSpec {
  return answerSheetSpecSchema.parse({
    homeworkId: 42,
    title: '七年级数学第三单元作业',
    subjectName: '数学',
    paperSize,
    className: '七年级(1)班',
    questions: [
      ...Array.from({ length: 12 }, (_, i) => ({ no: i + 1, type: 'single', score: 3 })),
      { no: 13, type: 'multiple', score: 4, optionCount: 5 },
      { no: 14, type: 'multiple', score: 4 },
      ...Array.from({ length: 6 }, (_, i) => ({ no: 15 + i, type: 'judge', score: 2 })),
      { no: 21, type: 'blank', score: 4, blankCount: 3 },
      { no: 22, type: 'blank', score: 2 },
      ...Array.from({ length: subjective }, (_, i) => ({ no: 23 + i, type: 'subjective', score: 10 + 2 * i })),
    ],
  });
}

const overlaps = (a: MmRect, b: MmRect) =>
  a.xMm < b.xMm + b.wMm && b.xMm < a.xMm + a.wMm && a.yMm < b.yMm + b.hMm && b.yMm < a.yMm + a.hMm;

const contains = (outer: MmRect, inner: MmRect) =>
  inner.xMm >= outer.xMm - 1e-9 &&
  inner.yMm >= outer.yMm - 1e-9 &&
  inner.xMm + inner.wMm <= outer.xMm + outer.wMm + 1e-9 &&
  inner.yMm + inner.hMm <= outer.yMm + outer.hMm + 1e-9;

/** Every drawn rectangle of a page that must not touch another, named for the failure message. */
function pageRects(page: AnswerSheetPage): Array<[string, MmRect]> {
  const quiet = SHEET_GEOMETRY.qrQuietMm;
  return [
    ...page.fiducials.map((f): [string, MmRect] => [
      `fiducial ${f.corner}`,
      { xMm: f.xMm - f.sizeMm / 2, yMm: f.yMm - f.sizeMm / 2, wMm: f.sizeMm, hMm: f.sizeMm },
    ]),
    [
      'qr with quiet zone',
      { xMm: page.qr.xMm - quiet, yMm: page.qr.yMm - quiet, wMm: page.qr.sizeMm + 2 * quiet, hMm: page.qr.sizeMm + 2 * quiet },
    ],
    ['header', page.header],
    ...page.objectiveBlocks.map((b, i): [string, MmRect] => [`block ${i}`, b]),
    ...page.regions.map((r): [string, MmRect] => [`region ${r.questionNo}`, r]),
  ];
}

/** The rectangle the four fiducials span (outer edges); the recognition finds the page by it. */
function fiducialRectangle(page: AnswerSheetPage): MmRect {
  const tl = page.fiducials.find((f) => f.corner === 'tl')!;
  const br = page.fiducials.find((f) => f.corner === 'br')!;
  return {
    xMm: tl.xMm - tl.sizeMm / 2,
    yMm: tl.yMm - tl.sizeMm / 2,
    wMm: br.xMm + br.sizeMm / 2 - (tl.xMm - tl.sizeMm / 2),
    hMm: br.yMm + br.sizeMm / 2 - (tl.yMm - tl.sizeMm / 2),
  };
}

describe('layoutAnswerSheet', () => {
  it.each(['A4', 'A3'] as const)('gives the same %s template for the same spec, and a valid one', (size) => {
    const a = layoutAnswerSheet(mixedSpec(size));
    const b = layoutAnswerSheet(structuredClone(mixedSpec(size)));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(answerSheetTemplateSchema.parse(a)).toEqual(a);
    expect(a).toMatchObject({ version: 1, paperSize: size, homeworkId: 42 });
  });

  it('uses A4 portrait and A3 landscape', () => {
    expect(layoutAnswerSheet(mixedSpec('A4'))).toMatchObject({ pageWidthMm: 210, pageHeightMm: 297 });
    expect(layoutAnswerSheet(mixedSpec('A3'))).toMatchObject({ pageWidthMm: 420, pageHeightMm: 297 });
  });

  it('places every question exactly once, objective ones as bubbles and the rest as regions', () => {
    for (const size of ['A4', 'A3'] as const) {
      const spec = mixedSpec(size);
      const t = layoutAnswerSheet(spec);
      const objective = t.pages.flatMap((p) => p.objective);
      const regions = t.pages.flatMap((p) => p.regions);
      expect(objective.map((q) => q.questionNo)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(regions.map((r) => [r.questionNo, r.kind])).toEqual([
        [21, 'blank'],
        [22, 'blank'],
        [23, 'subjective'],
        [24, 'subjective'],
        [25, 'subjective'],
      ]);
      expect(objective.find((q) => q.questionNo === 1)!.options.map((o) => o.label)).toEqual(['A', 'B', 'C', 'D']);
      expect(objective.find((q) => q.questionNo === 13)!.options.map((o) => o.label)).toEqual(['A', 'B', 'C', 'D', 'E']);
      expect(objective.find((q) => q.questionNo === 15)!.options.map((o) => o.label)).toEqual(['T', 'F']);
    }
  });

  it.each(['A4', 'A3'] as const)('lets nothing overlap on a %s page', (size) => {
    for (const page of layoutAnswerSheet(mixedSpec(size, 8)).pages) {
      const rects = pageRects(page);
      for (let i = 0; i < rects.length; i += 1) {
        for (let j = i + 1; j < rects.length; j += 1) {
          const [nameA, a] = rects[i]!;
          const [nameB, b] = rects[j]!;
          expect(overlaps(a, b), `page ${page.page}: ${nameA} overlaps ${nameB}`).toBe(false);
        }
      }
      const bubbles = page.objective.flatMap((q) => q.options.map((o) => ({ ...o, q: q.questionNo })));
      for (let i = 0; i < bubbles.length; i += 1) {
        for (let j = i + 1; j < bubbles.length; j += 1) {
          expect(
            overlaps(bubbles[i]!, bubbles[j]!),
            `bubbles ${bubbles[i]!.q}${bubbles[i]!.label} and ${bubbles[j]!.q}${bubbles[j]!.label}`,
          ).toBe(false);
        }
      }
      for (const q of page.objective) {
        const block = page.objectiveBlocks.filter((b) => q.options.every((o) => contains(b, o)));
        expect(block, `question ${q.questionNo} sits in exactly one block`).toHaveLength(1);
      }
      expect(contains(page.header, page.studentBlock.nameBox)).toBe(true);
      expect(contains(page.header, page.studentBlock.codeBox)).toBe(true);
      expect(overlaps(page.studentBlock.nameBox, page.studentBlock.codeBox)).toBe(false);
    }
  });

  it.each(['A4', 'A3'] as const)(
    'keeps everything on a %s page inside the fiducial rectangle, clear of the fiducials',
    (size) => {
      const t = layoutAnswerSheet(mixedSpec(size, 8));
      for (const page of t.pages) {
        const interior = fiducialRectangle(page);
        expect(interior.xMm).toBeGreaterThanOrEqual(5);
        expect(interior.xMm + interior.wMm).toBeLessThanOrEqual(t.pageWidthMm - 5);
        for (const [name, r] of pageRects(page).filter(([n]) => !n.startsWith('fiducial'))) {
          expect(contains(interior, r), `${name} on page ${page.page}`).toBe(true);
        }
        for (const o of page.objective.flatMap((q) => q.options)) expect(contains(interior, o)).toBe(true);
      }
    },
  );

  it('draws fiducials as 8 mm squares in the four corners', () => {
    const t = layoutAnswerSheet(mixedSpec('A3'));
    expect(t.pages[0]!.fiducials).toEqual([
      { corner: 'tl', xMm: 11, yMm: 11, sizeMm: 8 },
      { corner: 'tr', xMm: 409, yMm: 11, sizeMm: 8 },
      { corner: 'bl', xMm: 11, yMm: 286, sizeMm: 8 },
      { corner: 'br', xMm: 409, yMm: 286, sizeMm: 8 },
    ]);
  });

  it('puts the QR at the top right, inside the fiducials', () => {
    for (const size of ['A4', 'A3'] as const) {
      const t = layoutAnswerSheet(mixedSpec(size));
      const { qr, fiducials } = t.pages[0]!;
      const tr = fiducials.find((f) => f.corner === 'tr')!;
      expect(qr.xMm + qr.sizeMm).toBeLessThanOrEqual(tr.xMm - tr.sizeMm / 2);
      expect(qr.yMm).toBeGreaterThanOrEqual(tr.yMm + tr.sizeMm / 2);
      expect(qr.xMm).toBeGreaterThan(t.pageWidthMm / 2);
      expect(qr.sizeMm).toBeGreaterThanOrEqual(15);
    }
  });

  it('makes bubbles large enough to fill and far enough apart to tell apart', () => {
    const t = layoutAnswerSheet(mixedSpec('A4'));
    for (const q of t.pages.flatMap((p) => p.objective)) {
      q.options.forEach((o, i) => {
        expect(o.wMm).toBeGreaterThanOrEqual(4.5);
        expect(o.hMm).toBeGreaterThanOrEqual(3);
        const next = q.options[i + 1];
        if (next) expect(next.xMm - (o.xMm + o.wMm)).toBeGreaterThanOrEqual(2);
      });
    }
    const rows = t.pages[0]!.objective.filter((q) => q.options[0]!.xMm === t.pages[0]!.objective[0]!.options[0]!.xMm);
    const gaps = rows.slice(1).map((q, i) => q.options[0]!.yMm - (rows[i]!.options[0]!.yMm + rows[i]!.options[0]!.hMm));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(2);
  });

  it('groups objective questions five to a block and several blocks across', () => {
    const page = layoutAnswerSheet(mixedSpec('A4')).pages[0]!;
    const firstRowY = page.objectiveBlocks[0]!.yMm;
    expect(page.objectiveBlocks.filter((b) => b.yMm === firstRowY).length).toBeGreaterThanOrEqual(3);
    for (const block of page.objectiveBlocks) {
      expect(page.objective.filter((q) => contains(block, q.options[0]!)).length).toBeLessThanOrEqual(5);
    }
  });

  it('sizes subjective boxes by their lines, or by the score when lines are not given', () => {
    const spec = answerSheetSpecSchema.parse({
      homeworkId: 1,
      title: '作业',
      subjectName: '语文',
      paperSize: 'A4',
      questions: [
        { no: 1, type: 'subjective', score: 4 },
        { no: 2, type: 'subjective', score: 16 },
        { no: 3, type: 'subjective', score: 4, lines: 10 },
      ],
    });
    const [a, b, c] = layoutAnswerSheet(spec).pages.flatMap((p) => p.regions);
    expect(b!.hMm).toBeGreaterThan(a!.hMm);
    expect(c!.hMm - a!.hMm).toBeCloseTo((10 - defaultWritingLines(4)) * SHEET_GEOMETRY.writingLineMm);
  });

  it('flows onto more pages, each with its own fiducials, QR and page number', () => {
    const t = layoutAnswerSheet(mixedSpec('A4', 8));
    expect(t.pages.length).toBeGreaterThanOrEqual(3);
    t.pages.forEach((page, i) => {
      expect(page.page).toBe(i + 1);
      expect(page.fiducials).toHaveLength(4);
      expect(page.qr.sizeMm).toBeGreaterThan(0);
      expect(page.objective.length + page.regions.length).toBeGreaterThan(0);
    });
    const spec = mixedSpec('A4', 8);
    expect(sheetPageDecorations(spec, t, 1).texts.map((x) => x.text)).toContain(`第 2 页（共 ${t.pages.length} 页）`);
  });

  it('fills A3 columns left to right before starting a new page', () => {
    const t = layoutAnswerSheet(mixedSpec('A3', 8));
    const xs = new Set(t.pages[0]!.regions.map((r) => r.xMm));
    expect(xs.size).toBe(3);
    expect(t.pages.length).toBeLessThan(layoutAnswerSheet(mixedSpec('A4', 8)).pages.length);
  });

  it('prints the student name and code in the boxes of a per-student sheet only', () => {
    const spec = mixedSpec('A4');
    const t = layoutAnswerSheet(spec);
    const personal = sheetPageDecorations(spec, t, 0, { name: '张三', code: '2024001' }).texts.map((x) => x.text);
    const generic = sheetPageDecorations(spec, t, 0).texts.map((x) => x.text);
    expect(personal).toEqual(expect.arrayContaining(['张三', '2024001', '姓名', '学号', spec.title]));
    expect(generic).not.toContain('张三');
    expect(generic).toEqual(expect.arrayContaining(['姓名', '学号', '学科：数学    班级：七年级(1)班']));
    expect(generic.filter((x) => x === 'T')).toHaveLength(6);
    expect(generic).toContain('21．（4分）');
  });
});

describe('sheet QR payload', () => {
  it('encodes to a short SH1 string and decodes back', () => {
    expect(encodeSheetQr({ homeworkId: 123, page: 2 })).toBe('SH1:h123:p2:s-');
    expect(encodeSheetQr({ homeworkId: 123, page: 1, studentCode: '2024001' })).toBe('SH1:h123:p1:s2024001');
    for (const payload of [
      { homeworkId: 1, page: 1 },
      { homeworkId: 987654321, page: 12, studentCode: '20240315' },
      { homeworkId: 5, page: 3, studentCode: 'A-01:张' },
      { homeworkId: 5, page: 3, studentCode: '-' },
    ]) {
      expect(decodeSheetQr(encodeSheetQr(payload))).toEqual(payload);
    }
  });

  it('rejects what is not a sheet QR', () => {
    for (const text of [
      '',
      'hello',
      'https://example.com/?h=1',
      'SH2:h1:p1:s-',
      'SH1:h1:p1',
      'SH1:h0:p1:s-',
      'SH1:h1:p0:s-',
      'SH1:hx:p1:s-',
      'SH1:h1:p1:s%E0%A4%A',
      'SH1:h1:p1:s-:extra',
      'SH1:h99999999999999999:p1:s-',
    ]) {
      expect(decodeSheetQr(text), text).toBeNull();
    }
  });

  it('refuses to encode a payload the format cannot carry', () => {
    expect(() => encodeSheetQr({ homeworkId: 0, page: 1 })).toThrow();
    expect(() => encodeSheetQr({ homeworkId: 1, page: 1, studentCode: '' })).toThrow();
  });
});
