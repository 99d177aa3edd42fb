/**
 * The re-practice print (set-pdf.ts) read back: the cover, each student's paper with their own questions,
 * numbered, with type, points and options, and pages that name their font once (pdf-lib named it afresh
 * for every line of text, twice: a third of the file was those names).
 */
import * as mupdf from 'mupdf';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderSetPdf, type PrintQuestion, type PrintStudent } from '../../../server/services/rehearse-sets/set-pdf';
import { answerSheetSpecSchema } from '../../../src/shared/contract/answer-sheet';
import { layoutAnswerSheet } from '../../../src/shared/lib/answer-sheet-layout';

const SHARED_1: Omit<PrintQuestion, 'no'> = {
  score: 3,
  type: 'single',
  stem: '下列各数中，绝对值最小的是哪一个？请把你的选择涂在答题卡上。',
  options: ['-3', '0', '2', '-1'],
};
const SHARED_2: Omit<PrintQuestion, 'no'> = {
  score: 2,
  type: 'judge',
  stem: '两个负数相加，和一定小于其中任意一个加数。',
  options: [],
};
const own = (who: string): Omit<PrintQuestion, 'no'> => ({
  score: 3,
  type: 'single',
  stem: `只有${who}会做到的一道题：比较 -5 和 -7 的大小。`,
  options: ['-5 > -7', '-5 < -7'],
});

function student(name: string, code: string, questions: Omit<PrintQuestion, 'no'>[]): PrintStudent {
  const spec = answerSheetSpecSchema.parse({
    homeworkId: 501,
    title: '错题重练（一）',
    subjectName: '数学',
    paperSize: 'A4',
    className: '初一(1)班',
    questions: questions.map((q, i) => ({ no: i + 1, type: q.type, score: q.score })),
  });
  return {
    name,
    code,
    className: '初一(1)班',
    summary: `原题 ${questions.length} 道`,
    questions: questions.map((q, i) => ({ ...q, no: i + 1 })),
    spec,
    template: layoutAnswerSheet(spec),
  };
}

const STUDENTS = [
  student('张三', '2026010101', [SHARED_1, own('张三'), SHARED_2]),
  student('李四', '2026010102', [SHARED_2, SHARED_1, own('李四')]),
];

let pdf: Uint8Array;
let text: string[];
let lib: PDFDocument;

/** The page of a student's paper: the one headed with their name. */
const paperOf = (name: string) => text.findIndex((t) => t.includes(`姓名 ${name}`));

/** The names a page gives its fonts. */
function fontNames(index: number): number {
  return lib.getPage(index).node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict)?.keys().length ?? 0;
}

beforeAll(async () => {
  pdf = await renderSetPdf({ title: '错题重练（一）', subjectName: '数学', cover: true, students: STUDENTS });
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  text = Array.from({ length: doc.countPages() }, (_, i) =>
    doc.loadPage(i).toStructuredText('preserve-whitespace').asText().replace(/\s+/g, ' '),
  );
  lib = await PDFDocument.load(pdf);
});

describe('renderSetPdf', () => {
  it('lists who gets what on the cover, then each student’s paper with their own questions in their order', () => {
    expect(text[0]).toContain('发放清单');
    expect(text[0]).toContain('2026010101 张三 3 题');
    const zhang = text[paperOf('张三')]!;
    const li = text[paperOf('李四')]!;
    expect(paperOf('张三')).toBeGreaterThan(0);
    expect(paperOf('李四')).toBeGreaterThan(paperOf('张三'));
    for (const page of [zhang, li]) {
      expect(page).toContain('（单选题，3 分）下列各数中，绝对值最小的是哪一个？');
      expect(page).toContain('（判断题，2 分）两个负数相加');
      expect(page).toContain('B. 0');
      expect(page).toContain('（正确的在答题卡上涂 T，错误的涂 F）');
    }
    expect(zhang).toContain('只有张三会做到的一道题');
    expect(zhang).not.toContain('只有李四');
    expect(li).toContain('只有李四会做到的一道题');
    // Numbers follow each student's order: 李四's judge question is their first.
    expect(li.indexOf('1.')).toBeLessThan(li.indexOf('（判断题'));
    expect(li.indexOf('（判断题')).toBeLessThan(li.indexOf('2.'));
  });

  it('names the font once on each page, however many lines it has', () => {
    expect(lib.getPageCount()).toBeGreaterThan(4);
    for (let i = 0; i < lib.getPageCount(); i += 1) expect(fontNames(i), `page ${i + 1}`).toBe(1);
  });
});

describe('renderSetPdf with the class’s common set in the same job', () => {
  const common = (s: PrintStudent): PrintStudent => ({
    ...s,
    summary: '本班共性错题',
    questions: [SHARED_2, SHARED_1].map((q, i) => ({ ...q, no: i + 1 })),
  });
  let pages: string[];

  beforeAll(async () => {
    const bytes = await renderSetPdf({
      title: '错题重练（一）',
      subjectName: '数学',
      cover: true,
      students: STUDENTS,
      common: { title: '共性错题（一）', summary: '知识点：有理数', students: STUDENTS.map(common) },
    });
    const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
    pages = Array.from({ length: doc.countPages() }, (_, i) =>
      doc.loadPage(i).toStructuredText('preserve-whitespace').asText().replace(/\s+/g, ' '),
    );
  });

  it('lists the common set and each student’s own set on one cover', () => {
    expect(pages[0]).toContain('发放清单');
    expect(pages[0]).toContain('班级共性错题「共性错题（一）」：2 题（知识点：有理数）');
    expect(pages[0]).toContain('个人举一反三「错题重练（一）」');
    expect(pages[0]!.indexOf('共性错题（一）')).toBeLessThan(pages[0]!.indexOf('2026010101 张三 3 题'));
    expect(pages[0]!.indexOf('2026010101 张三')).toBeLessThan(pages[0]!.indexOf('2026010102 李四'));
  });

  it('prints the common set’s papers and sheets first, then each student’s own paper and sheet', () => {
    const at = (title: string, name: string) =>
      pages.findIndex((t) => t.includes(`姓名 ${name}`) && t.includes(title) && t.includes('请把答案写在答题卡上'));
    const order = [
      at('共性错题（一）', '张三'),
      at('共性错题（一）', '李四'),
      at('错题重练（一）', '张三'),
      at('错题重练（一）', '李四'),
    ];
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Each paper is followed by its sheet, before the next paper.
    for (const [k, i] of order.entries()) {
      const next = order[k + 1] ?? pages.length;
      expect(next - i).toBeGreaterThan(1);
    }
    const commonZhang = pages[order[0]!]!;
    expect(commonZhang).toContain('1. （判断题，2 分）两个负数相加');
    expect(commonZhang).not.toContain('只有张三');
    expect(pages[order[2]!]).toContain('只有张三会做到的一道题');
  });
});
