/**
 * Prints re-practice sets to one PDF: a cover listing who gets what (class, 学号, name, questions), then
 * per student, in the order given (class, then 学号), their paper (their own questions, formulas written
 * out) followed by their answer sheet with their QR code. The sheet pages come from the answer-sheet
 * printer (appendAnswerSheets), so recognition reads exactly what it lays out; this file only adds the
 * text pages with the same canvas and font.
 */
import type { PDFDocument, PDFFont, PDFImage, PDFPage } from 'pdf-lib';
import type { AnswerSheetSpec, AnswerSheetTemplate } from '../../../src/shared/contract/answer-sheet';
import { QUESTION_TYPE_NAMES } from '../../../src/shared/contract/rehearse-sets';
import {
  appendAnswerSheets,
  createSheetDocument,
  FAINT,
  INK,
  MmCanvas,
  PT_PER_MM,
  type SheetFormCache,
} from '../answer-sheet/answer-sheet-pdf';

export type PrintQuestion = { no: number; score: number; type: string; stem: string; options: string[] };

export type PrintStudent = {
  name: string;
  code: string;
  className: string;
  /** One line for the cover: what this student gets. */
  summary: string;
  questions: PrintQuestion[];
  spec: AnswerSheetSpec;
  template: AnswerSheetTemplate;
};

/** The class's common set printed in the same job as the personal sets (before them). */
export type CommonPrint = { title: string; summary: string; students: PrintStudent[] };

export type SetPrint = {
  title: string;
  subjectName: string;
  cover: boolean;
  students: PrintStudent[];
  common?: CommonPrint;
};

const PAGE = { w: 210, h: 297 };
const MARGIN = 18;
const BODY_MM = 3.7;
const LINE_MM = BODY_MM * 1.6;
const OPTION_LETTERS = 'ABCDEFGH';

/** Lays text out in lines and pages from the top of a fresh page (also the wrong-question book's printer). */
export class TextFlow {
  private canvas!: MmCanvas;
  private page!: PDFPage;
  private y = 0;
  private readonly widths = new Map<string, number>();

  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly footer: string,
  ) {
    this.newPage();
  }

  newPage() {
    this.page = this.doc.addPage([PAGE.w * PT_PER_MM, PAGE.h * PT_PER_MM]);
    this.canvas = new MmCanvas(this.page, PAGE.h, this.font);
    this.canvas.text(this.footer, PAGE.w / 2, PAGE.h - 8, 2.8, 'middle', FAINT);
    this.y = MARGIN;
  }

  private widthMm(text: string, sizeMm: number): number {
    let total = 0;
    for (const ch of text) {
      let w = this.widths.get(ch);
      if (w === undefined) {
        // Points at a 1-point size = ems; an em at sizeMm is sizeMm millimetres.
        w = this.font.widthOfTextAtSize(ch, 1);
        this.widths.set(ch, w);
      }
      total += w * sizeMm;
    }
    return total;
  }

  /** Splits text into lines no wider than `maxMm` (CJK breaks anywhere, Latin words stay whole when they fit). */
  private lines(text: string, sizeMm: number, maxMm: number): string[] {
    const out: string[] = [];
    let line = '';
    // The width of `line`, kept as it grows (measuring the whole line again per token was quadratic).
    let lineMm = 0;
    for (const token of text.match(/[A-Za-z0-9.,;:!?'"()+\-=/<>²³√×÷±≠≤≥]+|\s+|./gu) ?? []) {
      const tokenMm = this.widthMm(token, sizeMm);
      if (lineMm + tokenMm <= maxMm || line === '') {
        if (tokenMm > maxMm && line === '') {
          for (const ch of token) {
            const chMm = this.widthMm(ch, sizeMm);
            if (lineMm + chMm > maxMm && line !== '') {
              out.push(line);
              line = '';
              lineMm = 0;
            }
            line += ch;
            lineMm += chMm;
          }
        } else {
          line += token;
          lineMm += tokenMm;
        }
      } else {
        out.push(line.trimEnd());
        line = token.trimStart();
        lineMm = this.widthMm(line, sizeMm);
      }
    }
    if (line.trim() !== '') out.push(line.trimEnd());
    return out;
  }

  /** Makes room for `heightMm` on this page, or starts the next one. */
  need(heightMm: number) {
    if (this.y + heightMm > PAGE.h - MARGIN) this.newPage();
  }

  paragraph(
    text: string,
    { sizeMm = BODY_MM, indentMm = 0, hangMm = 0, tone = INK, align = 'start' as 'start' | 'middle' } = {},
  ) {
    const width = PAGE.w - 2 * MARGIN - indentMm;
    const lines = this.lines(text, sizeMm, width - hangMm);
    lines.forEach((line, i) => {
      this.need(sizeMm * 1.6);
      const x = align === 'middle' ? PAGE.w / 2 : MARGIN + indentMm + (i > 0 ? hangMm : 0);
      this.canvas.text(line, x, this.y + sizeMm, sizeMm, align, tone);
      this.y += sizeMm * 1.6;
    });
  }

  space(mm: number) {
    this.y += mm;
  }

  /** Draws an embedded image at most `maxWidthMm` wide and `maxHeightMm` tall, from the left margin plus `indentMm`. */
  image(image: PDFImage, { indentMm = 0, maxWidthMm = PAGE.w - 2 * MARGIN, maxHeightMm = 60 } = {}) {
    const widthMm = Math.min(maxWidthMm, PAGE.w - 2 * MARGIN - indentMm);
    // Scans are 300 dpi: never larger than the paper they were cut from.
    const scale = Math.min(25.4 / 300, widthMm / image.width, maxHeightMm / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    this.need(h + 1);
    this.page.drawImage(image, {
      x: (MARGIN + indentMm) * PT_PER_MM,
      y: (PAGE.h - this.y - h) * PT_PER_MM,
      width: w * PT_PER_MM,
      height: h * PT_PER_MM,
    });
    this.y += h + 1;
  }

  rule() {
    this.need(2);
    this.canvas.line(MARGIN, this.y, PAGE.w - MARGIN, this.y, 0.2, FAINT);
    this.y += 2;
  }
}

function drawCover(doc: PDFDocument, font: PDFFont, print: SetPrint) {
  const flow = new TextFlow(doc, font, `${print.title} · 发放清单`);
  flow.paragraph(`${print.title}（${print.subjectName}）发放清单`, { sizeMm: 5.5, align: 'middle' });
  flow.space(2);
  if (print.common) {
    const common = print.common;
    flow.paragraph(`一、班级共性错题「${common.title}」：${common.students[0]?.questions.length ?? 0} 题（${common.summary}）`, {
      sizeMm: 4.2,
    });
    flow.paragraph(`共 ${common.students.length} 名学生，每人一份试题和一张答题卡，在本清单之后先打印。`, { tone: FAINT });
    flow.space(2);
    flow.paragraph(`二、个人举一反三「${print.title}」`, { sizeMm: 4.2 });
  }
  flow.paragraph(`共 ${print.students.length} 名学生，按班级、学号排列；每人一份试题和一张答题卡（二维码含学号）。`, {
    tone: FAINT,
  });
  flow.space(2);
  let klass = '';
  for (const s of print.students) {
    if (s.className !== klass) {
      klass = s.className;
      flow.space(1.5);
      flow.paragraph(klass, { sizeMm: 4.2 });
      flow.rule();
    }
    flow.paragraph(`${s.code}  ${s.name}  ${s.questions.length} 题：${s.summary}`, { hangMm: 8, sizeMm: 3.3 });
  }
}

function drawPaper(doc: PDFDocument, font: PDFFont, print: SetPrint, student: PrintStudent) {
  const flow = new TextFlow(doc, font, `${print.title} · ${student.className} ${student.code} ${student.name}`);
  flow.paragraph(print.title, { sizeMm: 5.5, align: 'middle' });
  flow.paragraph(
    `${print.subjectName} · ${student.className} · 学号 ${student.code} · 姓名 ${student.name} · 共 ${student.questions.length} 题`,
    { align: 'middle', tone: FAINT },
  );
  flow.space(2);
  flow.rule();
  for (const q of student.questions) {
    flow.space(1.5);
    flow.need(LINE_MM * 2);
    flow.paragraph(`${q.no}. （${QUESTION_TYPE_NAMES[q.type] ?? q.type}，${q.score} 分）${q.stem}`, { hangMm: 5 });
    q.options.forEach((option, i) => flow.paragraph(`${OPTION_LETTERS[i]}. ${option}`, { indentMm: 6 }));
    if (q.type === 'judge') flow.paragraph('（正确的在答题卡上涂 T，错误的涂 F）', { indentMm: 6, tone: FAINT });
  }
  flow.space(3);
  flow.paragraph('请把答案写在答题卡上：选择题、判断题涂黑选项，其余题写在对应的方框内。', { tone: FAINT, sizeMm: 3.2 });
}

/** Adds a student's paper and answer sheet to a document. */
async function appendStudent(doc: PDFDocument, font: PDFFont, print: SetPrint, student: PrintStudent, forms: SheetFormCache) {
  drawPaper(doc, font, print, student);
  await appendAnswerSheets(
    doc,
    font,
    student.spec,
    student.template,
    [{ student: { name: student.name, code: student.code } }],
    forms,
  );
}

/**
 * The set's PDF. With `onStudent`, told after each student (and the event loop gets a turn, so a
 * progress request is answered while a long print runs), then `onSaving` before the file is written.
 */
export async function renderSetPdf(
  print: SetPrint,
  onStudent?: (done: number) => void,
  onSaving?: () => void,
): Promise<Uint8Array> {
  const { doc, font } = await createSheetDocument(print.title, print.subjectName);
  if (print.cover) drawCover(doc, font, print);
  // Sheets laid out alike (same question types and points, same class) share their stamped pages.
  const forms: SheetFormCache = new Map();
  // The common set first (its own title on its papers), then each student's own set.
  const parts: [SetPrint, PrintStudent][] = [
    ...(print.common?.students ?? []).map((s): [SetPrint, PrintStudent] => [{ ...print, title: print.common!.title }, s]),
    ...print.students.map((s): [SetPrint, PrintStudent] => [print, s]),
  ];
  for (const [i, [part, student]] of parts.entries()) {
    await appendStudent(doc, font, part, student, forms);
    if (onStudent) {
      onStudent(i + 1);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  onSaving?.();
  // Object streams would pack the thousands of small objects once more: bigger file, much faster save.
  return doc.save({ useObjectStreams: false });
}
