/**
 * Renders a paper as a Word document (.docx, `docx` library): the title, a line for name and class, the
 * sections with their numbered questions and options, and, when asked, 参考答案与解析. Rich text is
 * written as plain text (tags dropped); A3 papers are landscape in two columns. Owns only the drawing.
 */
import { AlignmentType, Document, HeadingLevel, Packer, PageOrientation, Paragraph, TextRun } from 'docx';
import type { PaperDetail, Question } from '../../../src/shared/contract/papers';

const FONT = { ascii: 'Times New Roman', eastAsia: 'SimSun', hAnsi: 'Times New Roman' };
const OPTION_LETTERS = 'ABCDEFGH';
/** Page sizes in twentieths of a point. */
const PAGE = { A4: { width: 11906, height: 16838 }, A3: { width: 16838, height: 23811 } } as const;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Rich text to plain text: line breaks kept, tags dropped, the common entities decoded. */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li)>/gi, '\n')
    .replace(/<img[^>]*>/gi, '[图]')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function formatScore(score: number) {
  return Number.isInteger(score) ? String(score) : String(Math.round(score * 100) / 100);
}

function run(text: string, options: { bold?: boolean; size?: number } = {}) {
  return new TextRun({ text, font: FONT, bold: options.bold, size: options.size ?? 21 });
}

/** Paragraphs of a text that may hold line breaks. */
function lines(text: string, prefix: TextRun[] = [], suffix: TextRun[] = [], indent = 0): Paragraph[] {
  const parts = plainText(text).split('\n');
  return parts.map(
    (part, i) =>
      new Paragraph({
        children: [...(i === 0 ? prefix : []), run(part), ...(i === parts.length - 1 ? suffix : [])],
        indent: indent ? { left: indent } : undefined,
        spacing: { after: 60 },
      }),
  );
}

function optionParagraphs(question: Question): Paragraph[] {
  return question.options.flatMap((option, i) => lines(option, [run(`${OPTION_LETTERS[i]}. `)], [], 420));
}

function answerText(question: Question): string {
  if (question.type === 'blank') return question.answer.map((a, i) => `(${i + 1}) ${plainText(a)}`).join('；');
  if (question.type === 'multiple') return question.answer.join('');
  return plainText(question.answer.join(''));
}

export async function renderPaperDocx(paper: PaperDetail, options: { withAnswers: boolean }): Promise<Buffer> {
  const children: Paragraph[] = [
    new Paragraph({
      alignment: AlignmentType.CENTER,
      heading: HeadingLevel.TITLE,
      children: [run(paper.title, { bold: true, size: 36 })],
    }),
    new Paragraph({
      alignment: AlignmentType.CENTER,
      spacing: { after: 240 },
      children: [run(`${paper.subjectName}\u3000满分 ${formatScore(paper.totalScore)} 分\u3000共 ${paper.questionCount} 题`)],
    }),
    new Paragraph({
      alignment: AlignmentType.CENTER,
      spacing: { after: 240 },
      children: [run('班级：__________\u3000姓名：__________\u3000学号：__________')],
    }),
  ];
  for (const section of paper.sections) {
    children.push(
      new Paragraph({
        heading: HeadingLevel.HEADING_2,
        spacing: { before: 240, after: 120 },
        children: [run(section.title, { bold: true, size: 24 })],
      }),
    );
    for (const item of section.questions) {
      children.push(
        ...lines(item.question.stem, [run(`${item.no}. `, { bold: true })], [run(`（${formatScore(item.score)} 分）`)]),
      );
      children.push(...optionParagraphs(item.question));
      if (item.question.type === 'subjective') {
        children.push(...Array.from({ length: 4 }, () => new Paragraph({ children: [run('')] })));
      }
    }
  }
  if (options.withAnswers) {
    children.push(
      new Paragraph({
        heading: HeadingLevel.HEADING_1,
        pageBreakBefore: true,
        alignment: AlignmentType.CENTER,
        spacing: { after: 240 },
        children: [run('参考答案与解析', { bold: true, size: 30 })],
      }),
    );
    for (const item of paper.sections.flatMap((section) => section.questions)) {
      children.push(...lines(answerText(item.question), [run(`${item.no}. 答案：`, { bold: true })]));
      if (item.question.analysis) children.push(...lines(item.question.analysis, [run('解析：')], [], 420));
    }
  }

  const landscape = paper.paperSize === 'A3';
  const size = PAGE[paper.paperSize];
  const doc = new Document({
    creator: '智慧作业',
    title: paper.title,
    sections: [
      {
        properties: {
          page: {
            // docx swaps width and height itself for a landscape page.
            size: {
              width: size.width,
              height: size.height,
              orientation: landscape ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT,
            },
            margin: { top: 1134, bottom: 1134, left: 1134, right: 1134 },
          },
          column: landscape ? { count: 2, space: 720 } : undefined,
        },
        children,
      },
    ],
  });
  return Packer.toBuffer(doc);
}
