/**
 * Lays out an answer sheet (答题卡): from the paper's questions to the millimetre template that both the
 * PDF renderer and the browser preview draw, and that the recognition engine reads scans against.
 * Pure and deterministic: the same spec always gives the same template. Also derives the texts and
 * ruled lines of a page (`sheetPageDecorations`), so the PDF and the preview print the same words in
 * the same places; those are drawing only and are not part of the versioned template.
 */
import {
  DEFAULT_OPTION_COUNT,
  JUDGE_OPTION_LABELS,
  type AnswerRegion,
  type AnswerSheetPage,
  type AnswerSheetQuestion,
  type AnswerSheetSpec,
  type AnswerSheetTemplate,
  type Fiducial,
  type MmRect,
  type ObjectiveQuestionLayout,
  type ObjectiveQuestionType,
  type SheetQrPlacement,
} from '../contract/answer-sheet';

export const PAGE_SIZE_MM = { A4: { width: 210, height: 297 }, A3: { width: 420, height: 297 } } as const;

/** The geometry constants of template version 1. */
export const SHEET_GEOMETRY = {
  fiducialSizeMm: 8,
  /** From the page edge to the fiducial's outer edge: clear of every printer's unprintable margin. */
  fiducialInsetMm: 7,
  /** From the page edge to the content (2 mm clear of the fiducials' inner edges). */
  contentInsetMm: 17,
  qrSizeMm: 20,
  /** White kept around the QR symbol (at least four modules). */
  qrQuietMm: 4,
  headerHeightMm: 34,
  columnGapMm: 8,
  bubbleWidthMm: 5,
  bubbleHeightMm: 3.5,
  optionPitchMm: 7.5,
  rowPitchMm: 6,
  blockPaddingMm: 2,
  numberWidthMm: 7,
  blockGapMm: 3,
  questionsPerBlock: 5,
  itemGapMm: 4,
  regionLabelHeightMm: 6,
  blankRowHeightMm: 8,
  blankSlotMinWidthMm: 50,
  writingLineMm: 8,
  regionPaddingMm: 2,
} as const;

const G = SHEET_GEOMETRY;
const OPTION_LETTERS = 'ABCDEFGH';
const COLUMNS = { A4: 1, A3: 3 } as const;

/** The writing lines a subjective question gets when the spec does not say: more points, more room. */
export function defaultWritingLines(score: number): number {
  return Math.min(24, Math.max(4, Math.ceil(score / 2) + 3));
}

/** The option labels of an objective question: A, B, C, … or T/F for a judge question. */
export function optionLabels(question: Pick<AnswerSheetQuestion, 'type' | 'optionCount'>): string[] {
  if (question.type === 'judge') return [...JUDGE_OPTION_LABELS];
  return OPTION_LETTERS.slice(0, question.optionCount ?? DEFAULT_OPTION_COUNT).split('');
}

type ObjectiveQuestion = AnswerSheetQuestion & { type: ObjectiveQuestionType };

export function isObjective(question: AnswerSheetQuestion): question is ObjectiveQuestion {
  return question.type === 'single' || question.type === 'multiple' || question.type === 'judge';
}

/** The millimetre template of a sheet: A4 portrait in one column, A3 landscape in three. */
export function layoutAnswerSheet(spec: AnswerSheetSpec): AnswerSheetTemplate {
  const { width, height } = PAGE_SIZE_MM[spec.paperSize];
  const columnCount = COLUMNS[spec.paperSize];
  const left = G.contentInsetMm;
  const contentWidth = width - 2 * G.contentInsetMm;
  const columnWidth = (contentWidth - (columnCount - 1) * G.columnGapMm) / columnCount;
  const top = G.contentInsetMm + G.headerHeightMm + 3;
  const bottom = height - G.contentInsetMm;

  const pages: AnswerSheetPage[] = [];
  const cursor = { page: -1, column: columnCount - 1, y: bottom };
  const newPage = () => {
    pages.push(pageFrame(pages.length + 1, width, height));
    cursor.page = pages.length - 1;
    cursor.column = 0;
    cursor.y = top;
  };
  /** Where an item of this height goes: the next column or page when it does not fit below the cursor. */
  const place = (heightMm: number) => {
    if (cursor.page < 0 || (cursor.y + heightMm > bottom && cursor.y > top)) {
      if (cursor.page < 0 || cursor.column === columnCount - 1) newPage();
      else {
        cursor.column += 1;
        cursor.y = top;
      }
    }
    const at = {
      page: pages[cursor.page] as AnswerSheetPage,
      x: left + cursor.column * (columnWidth + G.columnGapMm),
      y: cursor.y,
    };
    cursor.y += heightMm + G.itemGapMm;
    return at;
  };

  const objective = spec.questions.filter(isObjective);
  const maxOptions = Math.max(0, ...objective.map((q) => optionLabels(q).length));
  const blockWidth =
    2 * G.blockPaddingMm +
    G.numberWidthMm +
    maxOptions * G.bubbleWidthMm +
    (maxOptions - 1) * (G.optionPitchMm - G.bubbleWidthMm);
  const blocksPerRow = Math.max(1, Math.floor((columnWidth + G.blockGapMm) / (blockWidth + G.blockGapMm)));
  const blockStride = blocksPerRow > 1 ? blockWidth + (columnWidth - blocksPerRow * blockWidth) / (blocksPerRow - 1) : 0;

  const blocks = chunkObjective(objective);
  for (let first = 0; first < blocks.length; first += blocksPerRow) {
    const row = blocks.slice(first, first + blocksPerRow);
    const rowHeight = Math.max(...row.map((b) => blockHeight(b.length)));
    const at = place(rowHeight);
    row.forEach((block, i) => {
      const x = at.x + i * blockStride;
      at.page.objectiveBlocks.push(rect(x, at.y, blockWidth, blockHeight(block.length)));
      block.forEach((q, r) => at.page.objective.push(objectiveRow(q, x, at.y + G.blockPaddingMm + r * G.rowPitchMm)));
    });
  }

  const maxRegionHeight = bottom - top;
  const blankSlots = Math.max(1, Math.floor((columnWidth - 2 * G.regionPaddingMm) / G.blankSlotMinWidthMm));
  for (const q of spec.questions) {
    if (isObjective(q)) continue;
    const heightMm =
      q.type === 'blank'
        ? G.regionLabelHeightMm + Math.ceil((q.blankCount ?? 1) / blankSlots) * G.blankRowHeightMm + G.regionPaddingMm
        : G.regionLabelHeightMm + fittedLines(q, maxRegionHeight) * G.writingLineMm + G.regionPaddingMm;
    const at = place(Math.min(heightMm, maxRegionHeight));
    const region: AnswerRegion = {
      questionNo: q.no,
      kind: q.type === 'blank' ? 'blank' : 'subjective',
      ...rect(at.x, at.y, columnWidth, Math.min(heightMm, maxRegionHeight)),
    };
    at.page.regions.push(region);
  }

  if (pages.length === 0) newPage();
  return { version: 1, paperSize: spec.paperSize, pageWidthMm: width, pageHeightMm: height, homeworkId: spec.homeworkId, pages };
}

/** Writing lines of a subjective question, as many as fit one column at most. */
export function fittedLines(question: AnswerSheetQuestion, maxRegionHeightMm: number): number {
  const fit = Math.floor((maxRegionHeightMm - G.regionLabelHeightMm - G.regionPaddingMm) / G.writingLineMm);
  return Math.max(1, Math.min(question.lines ?? defaultWritingLines(question.score), fit));
}

/** Consecutive objective questions of one type, five to a block. */
function chunkObjective(questions: ObjectiveQuestion[]): ObjectiveQuestion[][] {
  const blocks: ObjectiveQuestion[][] = [];
  for (const q of questions) {
    const last = blocks.at(-1);
    if (last && last.length < G.questionsPerBlock && last[0]?.type === q.type) last.push(q);
    else blocks.push([q]);
  }
  return blocks;
}

function blockHeight(rows: number): number {
  return round(2 * G.blockPaddingMm + rows * G.bubbleHeightMm + (rows - 1) * (G.rowPitchMm - G.bubbleHeightMm));
}

function objectiveRow(q: ObjectiveQuestion, blockX: number, y: number): ObjectiveQuestionLayout {
  const firstX = blockX + G.blockPaddingMm + G.numberWidthMm;
  return {
    questionNo: q.no,
    type: q.type,
    options: optionLabels(q).map((label, i) => ({
      label,
      ...rect(firstX + i * G.optionPitchMm, y, G.bubbleWidthMm, G.bubbleHeightMm),
    })),
  };
}

/**
 * The corner fiducials and the QR placement of a page of this size: the same on every version-1 page, so
 * recognition can locate a scan and read its QR before it knows the template.
 */
export function sheetFrame(width: number, height: number): { fiducials: Fiducial[]; qr: SheetQrPlacement } {
  const s = G.fiducialSizeMm;
  const near = G.fiducialInsetMm + s / 2;
  const fiducial = (corner: Fiducial['corner'], xMm: number, yMm: number): Fiducial => ({ corner, xMm, yMm, sizeMm: s });
  return {
    fiducials: [
      fiducial('tl', near, near),
      fiducial('tr', width - near, near),
      fiducial('bl', near, height - near),
      fiducial('br', width - near, height - near),
    ],
    qr: { xMm: width - G.contentInsetMm - G.qrSizeMm, yMm: G.contentInsetMm + 2, sizeMm: G.qrSizeMm },
  };
}

function pageFrame(page: number, width: number, height: number): AnswerSheetPage {
  const { fiducials, qr } = sheetFrame(width, height);
  const left = G.contentInsetMm;
  const qrX = qr.xMm;
  const header = rect(left, G.contentInsetMm, qrX - G.qrQuietMm - 1 - left, G.headerHeightMm);
  const boxY = header.yMm + 15;
  const nameBox = rect(left + 10, boxY, 42, 8);
  const codeBox = rect(nameBox.xMm + nameBox.wMm + 16, boxY, 52, 8);
  return {
    page,
    fiducials,
    qr,
    header,
    studentBlock: { nameBox, codeBox },
    objectiveBlocks: [],
    objective: [],
    regions: [],
  };
}

function rect(x: number, y: number, w: number, h: number): MmRect {
  return { xMm: round(x), yMm: round(y), wMm: round(w), hMm: round(h) };
}

function round(mm: number): number {
  return Math.round(mm * 100) / 100;
}

/** A text to print; `baselineMm` is the baseline, `sizeMm` the font size (em). */
export interface SheetText {
  text: string;
  xMm: number;
  baselineMm: number;
  sizeMm: number;
  align: 'start' | 'middle' | 'end';
  /** `faint` prints grey, light enough for the recognition to ignore (letters inside bubbles). */
  tone: 'ink' | 'faint';
  /** Shrink the font so the text fits this width. */
  maxWidthMm?: number;
}

export interface SheetLine {
  x1Mm: number;
  y1Mm: number;
  x2Mm: number;
  y2Mm: number;
  tone: 'ink' | 'faint';
}

export interface SheetDecorations {
  texts: SheetText[];
  lines: SheetLine[];
}

export const SHEET_INSTRUCTIONS = [
  '注意事项：1．请用2B铅笔填涂选择题答案，修改时用橡皮擦干净，不留痕迹。',
  '2．非选择题请用0.5毫米黑色签字笔在各题答题区域内作答，超出答题区域书写无效。',
] as const;

/** Score as printed: "4分", "2.5分". */
export function formatScore(score: number): string {
  return `${Number.isInteger(score) ? score : Number(score.toFixed(1))}分`;
}

/** The student's name and code, printed inside the boxes of a per-student sheet. */
export function sheetStudentTexts(page: AnswerSheetPage, student: { name: string; code: string }): SheetText[] {
  const inBox = (text: string, box: MmRect): SheetText => ({
    text,
    xMm: box.xMm + 2,
    baselineMm: box.yMm + box.hMm / 2 + 1.4,
    sizeMm: 4,
    align: 'start',
    tone: 'ink',
    maxWidthMm: box.wMm - 4,
  });
  const { nameBox, codeBox } = page.studentBlock;
  return [inBox(student.name, nameBox), inBox(student.code, codeBox)].filter((t) => t.text.length > 0);
}

/**
 * The texts and ruled lines of one template page: header, student name and code (a per-student sheet),
 * question numbers, bubble letters, region labels, blank underlines and writing lines, page number.
 */
export function sheetPageDecorations(
  spec: AnswerSheetSpec,
  template: AnswerSheetTemplate,
  pageIndex: number,
  student?: { name: string; code: string },
): SheetDecorations {
  const page = template.pages[pageIndex];
  if (!page) return { texts: [], lines: [] };
  const texts: SheetText[] = [];
  const lines: SheetLine[] = [];
  const text = (t: Omit<SheetText, 'align' | 'tone'> & Partial<Pick<SheetText, 'align' | 'tone'>>) =>
    texts.push({ align: 'start', tone: 'ink', ...t });

  const { header, studentBlock } = page;
  const centre = header.xMm + header.wMm / 2;
  text({ text: spec.title, xMm: centre, baselineMm: header.yMm + 7, sizeMm: 6, align: 'middle', maxWidthMm: header.wMm });
  const subtitle = [`学科：${spec.subjectName}`, spec.className ? `班级：${spec.className}` : ''].filter(Boolean).join('    ');
  text({ text: subtitle, xMm: centre, baselineMm: header.yMm + 12.5, sizeMm: 3.5, align: 'middle', maxWidthMm: header.wMm });
  for (const [label, box] of [
    ['姓名', studentBlock.nameBox],
    ['学号', studentBlock.codeBox],
  ] as const) {
    text({ text: label, xMm: box.xMm - 1.5, baselineMm: box.yMm + box.hMm / 2 + 1.4, sizeMm: 3.8, align: 'end' });
  }
  if (student) texts.push(...sheetStudentTexts(page, student));
  // The second line hangs under the first line's text, past "注意事项：" (five full-width characters).
  const instructionSize = 2.8;
  SHEET_INSTRUCTIONS.forEach((line, i) =>
    text({
      text: line,
      xMm: header.xMm + (i === 0 ? 0 : 5 * instructionSize),
      baselineMm: header.yMm + 28 + i * 4,
      sizeMm: instructionSize,
      maxWidthMm: header.wMm - (i === 0 ? 0 : 5 * instructionSize),
    }),
  );
  text({
    text: `第 ${page.page} 页（共 ${template.pages.length} 页）`,
    xMm: template.pageWidthMm / 2,
    baselineMm: template.pageHeightMm - G.contentInsetMm + 4.5,
    sizeMm: 3,
    align: 'middle',
  });

  for (const q of page.objective) {
    const first = q.options[0];
    if (!first) continue;
    const middle = first.yMm + first.hMm / 2;
    text({ text: String(q.questionNo), xMm: first.xMm - 1.5, baselineMm: middle + 1.15, sizeMm: 3.3, align: 'end' });
    for (const o of q.options) {
      text({ text: o.label, xMm: o.xMm + o.wMm / 2, baselineMm: middle + 0.95, sizeMm: 2.7, align: 'middle', tone: 'faint' });
    }
  }

  const byNo = new Map(spec.questions.map((q) => [q.no, q]));
  for (const r of page.regions) {
    const q = byNo.get(r.questionNo);
    text({ text: `${r.questionNo}．（${formatScore(q?.score ?? 0)}）`, xMm: r.xMm + 2, baselineMm: r.yMm + 4.6, sizeMm: 3.3 });
    const bodyTop = r.yMm + G.regionLabelHeightMm;
    if (r.kind === 'blank') {
      const slots = Math.max(1, Math.floor((r.wMm - 2 * G.regionPaddingMm) / G.blankSlotMinWidthMm));
      const slotWidth = (r.wMm - 2 * G.regionPaddingMm) / slots;
      const count = q?.blankCount ?? 1;
      for (let i = 0; i < count; i += 1) {
        const x = r.xMm + G.regionPaddingMm + (i % slots) * slotWidth;
        const y = bodyTop + (Math.floor(i / slots) + 1) * G.blankRowHeightMm - 1.5;
        if (y > r.yMm + r.hMm) break;
        text({ text: `(${i + 1})`, xMm: x, baselineMm: y - 0.6, sizeMm: 3 });
        lines.push({ x1Mm: round(x + 7), y1Mm: round(y), x2Mm: round(x + slotWidth - 3), y2Mm: round(y), tone: 'ink' });
      }
    } else {
      for (let y = bodyTop + G.writingLineMm; y <= r.yMm + r.hMm - G.regionPaddingMm + 0.01; y += G.writingLineMm) {
        lines.push({ x1Mm: r.xMm + 3, y1Mm: round(y), x2Mm: round(r.xMm + r.wMm - 3), y2Mm: round(y), tone: 'faint' });
      }
    }
  }
  return { texts, lines };
}
