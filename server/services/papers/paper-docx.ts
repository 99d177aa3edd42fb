/**
 * Renders a paper as a Word document (.docx, `docx` library): the title, a line for name and class, the
 * sections with their numbered questions and options, and, when asked, 参考答案与解析. A3 papers are
 * landscape in two columns. Owns only the drawing.
 *
 * Rich text keeps what a teacher edits in Word: paragraphs and line breaks, bold/italic/underline and
 * sub/superscripts; every $…$ formula becomes a real Word equation (OMML: TeX -> MathML with Temml ->
 * OMML with mathml2omml, inserted as raw XML), and images are embedded (inline data, or the school's
 * stored files through `loadImage`). A formula the converters cannot read stays as its TeX, in italics;
 * an image that cannot be read is written as [图].
 */
import {
  AlignmentType,
  Document,
  HeadingLevel,
  ImageRun,
  ImportedXmlComponent,
  Packer,
  PageOrientation,
  Paragraph,
  type ParagraphChild,
  TextRun,
} from 'docx';
import { mml2omml } from 'mathml2omml';
import sharp from 'sharp';
import temml from 'temml';
import type { PaperDetail, Question } from '../../../src/shared/contract/papers';

export const FONT = { ascii: 'Times New Roman', eastAsia: 'SimSun', hAnsi: 'Times New Roman' };
const OPTION_LETTERS = 'ABCDEFGH';
/** Page sizes in twentieths of a point. */
const PAGE = { A4: { width: 11906, height: 16838 }, A3: { width: 16838, height: 23811 } } as const;
/** Widest an embedded image is drawn, in pixels (96 dpi): the text column of a portrait A4 page, or one A3 column. */
const MAX_IMAGE_WIDTH = { A4: 600, A3: 480 } as const;
const TEXT_SIZE = 21;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name] ?? '');
}

/** Rich text to plain text: line breaks kept, tags dropped, the common entities decoded. */
export function plainText(html: string): string {
  return decodeEntities(
    html
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|li)>/gi, '\n')
      .replace(/<img[^>]*>/gi, '[图]')
      .replace(/<[^>]+>/g, ''),
  )
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// ---- rich text as runs ---------------------------------------------------------------------------

export type Style = { bold?: boolean; italics?: boolean; underline?: boolean; subScript?: boolean; superScript?: boolean };
/** One piece of a line: text in a style, a formula, or an image. */
export type Piece =
  | { kind: 'text'; text: string; style: Style }
  | { kind: 'formula'; tex: string }
  | { kind: 'image'; src: string; width?: number; height?: number };

const STYLE_TAGS: Record<string, keyof Style> = {
  b: 'bold',
  strong: 'bold',
  i: 'italics',
  em: 'italics',
  u: 'underline',
  sub: 'subScript',
  sup: 'superScript',
};

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  if (!match) return undefined;
  return decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
}

/** Splits text into plain runs and $…$ formulas (a lone $ stays text). */
function splitFormulas(text: string, style: Style): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$([^$]+)\$/g)) {
    if (match.index > last) pieces.push({ kind: 'text', text: text.slice(last, match.index), style });
    pieces.push({ kind: 'formula', tex: match[1]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ kind: 'text', text: text.slice(last), style });
  return pieces;
}

/** Rich text (the bank's HTML subset with $…$ formulas) as lines of pieces. */
export function richLines(html: string): Piece[][] {
  const lines: Piece[][] = [[]];
  const depth: Record<keyof Style, number> = { bold: 0, italics: 0, underline: 0, subScript: 0, superScript: 0 };
  const style = (): Style => {
    const current: Style = {};
    for (const key of Object.keys(depth) as (keyof Style)[]) if (depth[key] > 0) current[key] = true;
    return current;
  };
  const newLine = () => {
    if (lines[lines.length - 1]!.length > 0) lines.push([]);
  };
  // A $…$ formula is one token before any tag is looked for: the bank writes $k<1$ with a raw <, which
  // is no tag (it was dropped, or with a > further on swallowed the text between). A < that starts no tag
  // is text too. A formula never runs over a closing tag or a block's start (two lone $ in two paragraphs).
  const tokens = /\$(?:(?!<\/|<(?:p|div|br|img|li|tr|td|th|table)\b)[^$])+\$|<\/?[a-z][^>]*>|[^<$]+|[<$]/gi;
  for (const token of html.match(tokens) ?? []) {
    if (!/^<\/?[a-z]/i.test(token)) {
      const text = decodeEntities(token).replace(/\r?\n/g, ' ');
      if (text.trim() === '' && lines[lines.length - 1]!.length === 0) continue;
      lines[lines.length - 1]!.push(...splitFormulas(text, style()));
      continue;
    }
    const match = /^<\s*(\/?)\s*([a-z0-9]+)/i.exec(token);
    if (!match) continue;
    const closing = match[1] === '/';
    const name = match[2]!.toLowerCase();
    const styleKey = STYLE_TAGS[name];
    if (styleKey) depth[styleKey] = Math.max(0, depth[styleKey] + (closing ? -1 : 1));
    else if (name === 'br') lines.push([]);
    else if (['p', 'div', 'li', 'tr', 'table'].includes(name)) newLine();
    else if (name === 'td' || name === 'th') {
      if (closing) lines[lines.length - 1]!.push({ kind: 'text', text: '\u3000', style: {} });
    } else if (name === 'img' && !closing) {
      const src = attribute(token, 'src');
      const width = Number(attribute(token, 'width')) || undefined;
      const height = Number(attribute(token, 'height')) || undefined;
      if (src) lines[lines.length - 1]!.push({ kind: 'image', src, width, height });
    }
  }
  while (lines.length > 1 && lines[lines.length - 1]!.length === 0) lines.pop();
  return lines;
}

/**
 * mathml2omml sometimes leaves text straight inside an element (after a big operator: `<m:e><m:r>…</m:r>=1</m:e>`),
 * which Word and LibreOffice drop: every text outside `m:t` is put into a run of its own.
 */
export function repairOmml(omml: string): string {
  let insideText = 0;
  return (omml.match(/<[^>]*>|[^<]+/g) ?? [])
    .map((token) => {
      if (token.startsWith('<')) {
        if (/^<m:t[\s>]/.test(token)) insideText += 1;
        else if (token.startsWith('</m:t>')) insideText = Math.max(0, insideText - 1);
        return token;
      }
      if (insideText > 0 || token.trim() === '') return token;
      return `<m:r><m:t xml:space="preserve">${token}</m:t></m:r>`;
    })
    .join('');
}

/**
 * mathml2omml decodes the MathML's `&lt;` `&gt;` `&amp;` and writes them back raw (`<m:t>x<1</m:t>`, which no
 * XML reader accepts): they travel through it as private-use characters and are escaped after.
 */
const ESCAPES: [entity: string, stand: string][] = [
  ['&amp;', '\uE000'],
  ['&lt;', '\uE001'],
  ['&gt;', '\uE002'],
];

/** Relations and binary operators: each needs an operand on both sides when LibreOffice reads the run. */
const TRAILING_OPERATOR = /^([\s\S]*?)([=<>≤≥≠≈≡∼≅∝∈∉⊂⊆⊃⊇+\-−±∓×÷·⋅∗/:]|&lt;|&gt;)(\s*)$/;
const LEADING_RELATION = /^(\s*)([=≤≥≠≈≡∼≅∝∈∉⊂⊆⊃⊇×÷·⋅∗/]|&lt;|&gt;)([\s\S]*)$/;
const RUN = /<m:r>(<m:rPr>[\s\S]*?<\/m:rPr>)?<m:t( xml:space="preserve")?>([^<]*)<\/m:t><\/m:r>/g;
const ARGUMENT = '(?:oMath|e|num|den|sub|sup|lim|fName)';
const literalRun = (text: string) => `<m:r><m:rPr><m:lit/></m:rPr><m:t xml:space="preserve">${text}</m:t></m:r>`;
const plainRun = (rPr: string | undefined, text: string) => `<m:r>${rPr ?? ''}<m:t xml:space="preserve">${text}</m:t></m:r>`;

/**
 * LibreOffice reads an equation by turning each run's text into its own formula language (StarMath), so a
 * relation or operator with nothing on one side (a blank to fill: `x^2 \cdot x^3 =`) or an empty argument
 * (`{}^{2}`) becomes a missing-operand placeholder, drawn as a stray ¿. Word draws all of these as they
 * are. So: an operator that ends an argument (or a relation that starts one) goes into a literal run of
 * its own (`m:lit`, read by LibreOffice as quoted text, drawn by Word the same), an empty argument gets a
 * zero-width space, and the invisible function-application / times / separator characters (U+2061-2064),
 * which draw nothing in Word and a box or nothing in LibreOffice, are left out.
 */
export function guardOperands(omml: string): string {
  let out = omml.replace(/[\u2061-\u2064]/g, '');
  out = out.replace(
    new RegExp(`<m:(${ARGUMENT})/>|<m:(${ARGUMENT})></m:\\2>`, 'g'),
    (_all, selfClosing?: string, open?: string) => {
      const name = selfClosing ?? open!;
      return `<m:${name}><m:r><m:t>\u200B</m:t></m:r></m:${name}>`;
    },
  );
  // Runs that close an argument: their last operator is split off.
  out = out.replace(new RegExp(`${RUN.source}(?=</m:${ARGUMENT}>)`, 'g'), (run, rPr?: string, _space?: string, text = '') => {
    const match = TRAILING_OPERATOR.exec(text);
    if (!match || rPr?.includes('m:lit')) return run;
    const [, before = '', operator = '', after = ''] = match;
    return (before.trim() ? plainRun(rPr, before) : '') + literalRun(operator + after);
  });
  // Runs that open an argument: a relation first in them is split off.
  out = out.replace(
    new RegExp(`(<m:${ARGUMENT}(?: [^>]*)?>)${RUN.source}`, 'g'),
    (run, open: string, rPr?: string, _space?: string, text = '') => {
      const match = LEADING_RELATION.exec(text);
      if (!match || rPr?.includes('m:lit')) return run;
      const [, before = '', operator = '', after = ''] = match;
      return open + literalRun(before + operator) + (after.trim() ? plainRun(rPr, after) : '');
    },
  );
  return out;
}

/** The OMML of a TeX formula (an `m:oMath` element), or null when it cannot be converted. */
export function formulaOmml(tex: string): string | null {
  try {
    let mathml = temml.renderToString(tex, { xml: true, throwOnError: true } as Parameters<typeof temml.renderToString>[1]);
    for (const [entity, stand] of ESCAPES) mathml = mathml.replaceAll(entity, stand);
    let omml = mml2omml(mathml);
    for (const [entity, stand] of ESCAPES) omml = omml.replaceAll(stand, entity);
    omml = guardOperands(repairOmml(omml));
    return omml.includes('<m:oMath') ? omml : null;
  } catch {
    return null;
  }
}

/** A stored image: its bytes, or null when it cannot be read. */
export type ImageLoader = (src: string) => Promise<Buffer | null>;

type LoadedImage = { data: Buffer; type: 'png' | 'jpg' | 'gif'; width: number; height: number };

const DATA_URL = /^data:image\/(png|jpe?g|gif|webp|bmp);base64,(.+)$/i;

/** Reads an image (inline data or through `loadImage`) as PNG, JPEG or GIF with its size. */
async function loadImageOf(src: string, loadImage: ImageLoader | undefined): Promise<LoadedImage | null> {
  try {
    const inline = DATA_URL.exec(src.trim());
    const bytes = inline ? Buffer.from(inline[2]!, 'base64') : loadImage ? await loadImage(src) : null;
    if (!bytes || bytes.length === 0) return null;
    const meta = await sharp(bytes).metadata();
    if (!meta.width || !meta.height) return null;
    if (meta.format === 'png' || meta.format === 'jpeg' || meta.format === 'gif') {
      return { data: bytes, type: meta.format === 'jpeg' ? 'jpg' : meta.format, width: meta.width, height: meta.height };
    }
    // Word reads neither WebP nor most other formats: convert.
    return { data: await sharp(bytes).png().toBuffer(), type: 'png', width: meta.width, height: meta.height };
  } catch {
    return null;
  }
}

export type Drawing = { images: Map<string, LoadedImage | null>; maxImageWidth: number };

export function textRun(text: string, style: Style = {}, size = TEXT_SIZE) {
  const { underline, ...rest } = style;
  return new TextRun({ text, font: FONT, size, ...rest, ...(underline ? { underline: {} } : {}) });
}

function pieceRuns(piece: Piece, drawing: Drawing): ParagraphChild[] {
  if (piece.kind === 'text') return piece.text ? [textRun(piece.text, piece.style)] : [];
  if (piece.kind === 'formula') {
    const omml = formulaOmml(piece.tex);
    // Raw OMML inside the paragraph: docx writes the imported element as it is.
    if (omml) return [ImportedXmlComponent.fromXmlString(omml) as unknown as ParagraphChild];
    return [textRun(piece.tex, { italics: true })];
  }
  const image = drawing.images.get(piece.src);
  if (!image) return [textRun('[图]')];
  let width = piece.width ?? image.width;
  let height = piece.height ?? (piece.width ? Math.round((image.height * piece.width) / image.width) : image.height);
  if (width > drawing.maxImageWidth) {
    height = Math.round((height * drawing.maxImageWidth) / width);
    width = drawing.maxImageWidth;
  }
  return [new ImageRun({ type: image.type, data: image.data, transformation: { width, height } })];
}

/** Paragraphs of rich text; `prefix` opens the first line, `suffix` closes the last. */
export function richParagraphs(html: string, drawing: Drawing, prefix: TextRun[] = [], suffix: TextRun[] = [], indent = 0) {
  const lines = richLines(html);
  return lines.map(
    (line, i) =>
      new Paragraph({
        children: [
          ...(i === 0 ? prefix : []),
          ...line.flatMap((piece) => pieceRuns(piece, drawing)),
          ...(i === lines.length - 1 ? suffix : []),
        ],
        indent: indent ? { left: indent } : undefined,
        spacing: { after: 60 },
      }),
  );
}

function formatScore(score: number) {
  return Number.isInteger(score) ? String(score) : String(Math.round(score * 100) / 100);
}

function run(text: string, options: { bold?: boolean; size?: number } = {}) {
  return textRun(text, { bold: options.bold }, options.size ?? TEXT_SIZE);
}

/** The answer as rich text: blanks numbered, choices as letters. */
function answerHtml(question: Question): string {
  if (question.type === 'blank') return question.answer.map((a, i) => `(${i + 1}) ${a}`).join('；');
  return question.answer.join('');
}

/** Every image source of the paper's rich text that will be drawn. */
function imageSources(paper: PaperDetail, withAnswers: boolean): string[] {
  const texts = paper.sections.flatMap((section) =>
    section.questions.flatMap(({ question }) => [
      question.stem,
      ...question.options,
      ...(withAnswers ? [answerHtml(question), question.analysis] : []),
    ]),
  );
  const sources = texts.flatMap((text) =>
    richLines(text).flatMap((line) => line.flatMap((piece) => (piece.kind === 'image' ? [piece.src] : []))),
  );
  return [...new Set(sources)];
}

export async function renderPaperDocx(
  paper: PaperDetail,
  options: { withAnswers: boolean; loadImage?: ImageLoader },
): Promise<Buffer> {
  const sources = imageSources(paper, options.withAnswers);
  const loaded = await Promise.all(sources.map((src) => loadImageOf(src, options.loadImage)));
  const drawing: Drawing = {
    images: new Map(sources.map((src, i) => [src, loaded[i] ?? null])),
    maxImageWidth: MAX_IMAGE_WIDTH[paper.paperSize],
  };

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
        ...richParagraphs(
          item.question.stem,
          drawing,
          [run(`${item.no}. `, { bold: true })],
          [run(`（${formatScore(item.score)} 分）`)],
        ),
      );
      children.push(
        ...item.question.options.flatMap((option, i) =>
          richParagraphs(option, drawing, [run(`${OPTION_LETTERS[i]}. `)], [], 420),
        ),
      );
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
      children.push(...richParagraphs(answerHtml(item.question), drawing, [run(`${item.no}. 答案：`, { bold: true })]));
      if (item.question.analysis) children.push(...richParagraphs(item.question.analysis, drawing, [run('解析：')], [], 420));
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
