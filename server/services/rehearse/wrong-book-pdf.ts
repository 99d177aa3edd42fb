/**
 * Prints a student's wrong-question book to a PDF for the student to keep: a head (name, class, 学号,
 * subject, what is included and the counts by mastery), then each question with where and how often it
 * went wrong, the stem and options, the student's answer (the chosen options, or the answer image cut
 * from the scan), the key, the analysis and the error cause. Same canvas, font and formula text as the
 * printed re-practice sets (set-pdf.ts); rich text loses its markup, images in a stem print as [图].
 */
import type { PDFDocument, PDFImage } from 'pdf-lib';
import { QUESTION_TYPE_LABELS, type QuestionType } from '../../../src/shared/contract/papers';
import { MASTERY_LABELS, type StudentBook } from '../../../src/shared/contract/rehearse';
import { createSheetDocument, FAINT } from '../answer-sheet/answer-sheet-pdf';
import { plainText } from '../papers/paper-docx';
import { plainFormulaText } from '../rehearse-sets/plain-formula';
import { TextFlow } from '../rehearse-sets/set-pdf';

const LETTERS = 'ABCDEFGH';
const CHOICE = new Set(['single', 'multiple', 'judge']);
const labelText = (label: string) => (label === 'T' ? '对' : label === 'F' ? '错' : label);

/** Rich text as printable lines: markup dropped, formulas written out, one string per paragraph. */
export function printableLines(rich: string): string[] {
  return plainText(rich)
    .split('\n')
    .map((line) => plainFormulaText(line))
    .filter((line) => line !== '');
}

export type WrongBookPrint = {
  book: StudentBook;
  subjectName: string;
  /** What the book includes, as the filter says it (未掌握 / 已掌握 / 全部). */
  scope: string;
  /** The answer image cut from the scan, by answer id (PNG or JPEG bytes), when it can be read. */
  images: Map<number, Uint8Array>;
};

async function embed(doc: PDFDocument, bytes: Uint8Array): Promise<PDFImage | null> {
  try {
    // PNG starts 0x89 'P'; anything else is tried as JPEG.
    return bytes[0] === 0x89 && bytes[1] === 0x50 ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
  } catch {
    return null;
  }
}

export async function renderWrongBookPdf({ book, subjectName, scope, images }: WrongBookPrint): Promise<Uint8Array> {
  const { student, entries, counts } = book;
  const title = `${student.name}的错题本`;
  const { doc, font } = await createSheetDocument(title, subjectName);
  const flow = new TextFlow(doc, font, `${title} · ${student.className} ${student.code}`);
  flow.paragraph(title, { sizeMm: 5.5, align: 'middle' });
  flow.paragraph(`${student.className} · 学号 ${student.code} · ${subjectName} · 共 ${entries.length} 题（${scope}）`, {
    align: 'middle',
    tone: FAINT,
  });
  flow.paragraph(
    (Object.keys(MASTERY_LABELS) as (keyof typeof MASTERY_LABELS)[])
      .map((state) => `${MASTERY_LABELS[state]} ${counts[state]}`)
      .join(' · '),
    { align: 'middle', tone: FAINT, sizeMm: 3.2 },
  );
  flow.space(2);
  flow.rule();
  if (entries.length === 0) flow.paragraph('没有符合条件的错题。', { tone: FAINT });

  for (const [i, entry] of entries.entries()) {
    flow.space(2);
    flow.need(6 * 4);
    const type = QUESTION_TYPE_LABELS[entry.type as QuestionType] ?? entry.type;
    flow.paragraph(`${i + 1}. （${type}，${entry.fullScore} 分） ${MASTERY_LABELS[entry.mastery]}`, { sizeMm: 4 });
    flow.paragraph(
      `错 ${entry.timesWrong} 次 · 最近：${entry.homework.name} 第 ${entry.questionNo} 题（${entry.lastWrongOn}） · 得分 ${entry.score}/${entry.fullScore}` +
        (entry.redoCount > 0 ? ` · 已重练 ${entry.redoCount} 次` : '') +
        (entry.knowledgePoints.length > 0 ? ` · 知识点：${entry.knowledgePoints.join('、')}` : ''),
      { tone: FAINT, sizeMm: 3.1, indentMm: 5 },
    );
    for (const line of printableLines(entry.stem)) flow.paragraph(line, { indentMm: 5 });
    entry.options.forEach((option, k) =>
      flow.paragraph(`${LETTERS[k]}. ${printableLines(option).join(' ')}`, { indentMm: 9, hangMm: 4 }),
    );

    flow.space(1);
    const given = entry.labels && entry.labels.length > 0 ? entry.labels.map(labelText).join('、') : null;
    const image = !given && entry.answerId !== null ? images.get(entry.answerId) : undefined;
    const picture = image ? await embed(doc, image) : null;
    if (given) flow.paragraph(`学生作答：${given}`, { indentMm: 5 });
    else if (picture) {
      flow.paragraph('学生作答（扫描截图）：', { indentMm: 5 });
      flow.image(picture, { indentMm: 5, maxHeightMm: 50 });
    } else flow.paragraph(`学生作答：${CHOICE.has(entry.type) ? '未作答' : '无答题图片'}`, { indentMm: 5 });
    const key = entry.key.map((k) => printableLines(labelText(k)).join(' ')).join(CHOICE.has(entry.type) ? '、' : '；');
    flow.paragraph(`正确答案：${key}`, { indentMm: 5, hangMm: 5 });
    const analysis = printableLines(entry.analysis);
    if (analysis.length > 0) {
      flow.paragraph(`解析：${analysis[0]}`, { indentMm: 5, hangMm: 5 });
      for (const line of analysis.slice(1)) flow.paragraph(line, { indentMm: 10 });
    }
    flow.paragraph(`错因：${entry.errorCause ?? '未标注'}`, { indentMm: 5, tone: FAINT });
    flow.space(1);
    flow.rule();
  }
  return doc.save();
}
