/**
 * Prints answer sheets (答题卡) to one PDF: every page of the template once per sheet, per student (name
 * and code printed, the code in the QR) or generic (left blank for the student to fill in). Owns only
 * the drawing; the geometry comes from the template and the words from `sheetPageDecorations`, so what
 * is printed is what the preview shows and what the recognition expects. The Chinese font is Noto Sans
 * SC from node_modules, read once per process and embedded once per PDF as a subset.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, PDFRef, grayscale, type PDFEmbeddedPage, type PDFFont, type PDFPage } from 'pdf-lib';
import type {
  AnswerSheetPage,
  AnswerSheetSpec,
  AnswerSheetTemplate,
  MmRect,
  SheetQrPlacement,
} from '../../../src/shared/contract/answer-sheet';
import {
  sheetPageDecorations,
  sheetStudentTexts,
  type SheetDecorations,
  type SheetText,
} from '../../../src/shared/lib/answer-sheet-layout';
import { encodeSheetQr, sheetQrRuns } from '../../../src/shared/lib/answer-sheet-qr';

export interface AnswerSheetCopy {
  /** The student the sheet is printed for; absent for a generic sheet. */
  student?: { name: string; code: string };
}

const FONT_MODULE = '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf';
export const PT_PER_MM = 72 / 25.4;
export const INK = grayscale(0);
/** Bubble letters: light enough that an unfilled bubble still reads as empty. */
export const FAINT = grayscale(0.6);
const FRAME = grayscale(0.35);

let fontBytes: Promise<Uint8Array> | undefined;

/**
 * @pdf-lib/fontkit 1.1.1 writes a subset's `loca` in the short format without padding the glyph records
 * to even lengths, which corrupts most CJK glyphs of a static Noto Sans SC (pdf-lib issue 1232; fixed
 * upstream in fontkit 1.8). Pinning every subset to the long `loca` format sidesteps the bug.
 */
const longLocaFontkit: Parameters<PDFDocument['registerFontkit']>[0] = {
  create(buffer, postscriptName) {
    const font = fontkit.create(buffer, postscriptName);
    // pdf-lib shapes every string it measures or draws (GSUB lookups over the whole string, the slow
    // part of CJK text) and reads only the glyphs. A document repeats the same characters in thousands
    // of distinct lines, so each character is shaped once per document and a string's glyphs are its
    // characters' glyphs (no ligature across characters: none in the Chinese text printed, and the text
    // extracted from the PDF stays the text drawn).
    const layout = font.layout.bind(font);
    type Glyphs = ReturnType<typeof layout>['glyphs'];
    const perCharacter = new Map<string, Glyphs>();
    const shaped = new Map<string, ReturnType<typeof layout>>();
    font.layout = ((text: string, features?: unknown) => {
      if (typeof text !== 'string' || features !== undefined) return layout(text as never, features as never);
      let run = shaped.get(text);
      if (!run) {
        const glyphs: Glyphs = [];
        for (const character of text) {
          let own = perCharacter.get(character);
          if (!own) {
            own = layout(character).glyphs;
            perCharacter.set(character, own);
          }
          for (const glyph of own) glyphs.push(glyph);
        }
        run = { glyphs } as unknown as ReturnType<typeof layout>;
        if (shaped.size < 50_000) shaped.set(text, run);
      }
      return run;
    }) as typeof font.layout;
    const createSubset = font.createSubset.bind(font);
    font.createSubset = () => {
      const subset = createSubset() as ReturnType<typeof createSubset> & {
        loca?: { version?: number };
        _addGlyph(gid: number): number;
      };
      const addGlyph = subset._addGlyph.bind(subset);
      subset._addGlyph = (gid) => {
        if (subset.loca) subset.loca.version = 1;
        return addGlyph(gid);
      };
      return subset;
    };
    return font;
  },
};

/**
 * pdf-lib compresses every content stream with pako, a JavaScript deflate: a third of the CPU time of a
 * class's print. The same zlib format from Node's native zlib is several times faster; pdf-lib calls
 * `deflate(bytes)` without options, so only that call is answered natively (any other goes to pako).
 */
function deflateNatively(): void {
  const pako = createRequire(createRequire(import.meta.url).resolve('pdf-lib'))('pako') as {
    deflate: (input: Uint8Array, options?: unknown) => Uint8Array;
    __native?: true;
  };
  if (pako.__native) return;
  const original = pako.deflate;
  pako.deflate = (input, options) => (options === undefined ? new Uint8Array(deflateSync(input)) : original(input, options));
  pako.__native = true;
}
deflateNatively();

function loadFont(): Promise<Uint8Array> {
  fontBytes ??= readFile(createRequire(import.meta.url).resolve(FONT_MODULE)).catch((error: unknown) => {
    fontBytes = undefined;
    throw error;
  });
  return fontBytes;
}

export async function renderAnswerSheetPdf(
  spec: AnswerSheetSpec,
  template: AnswerSheetTemplate,
  sheets: AnswerSheetCopy[],
): Promise<Uint8Array> {
  const { doc, font } = await createSheetDocument(`${spec.title} 答题卡`, spec.subjectName);
  await appendAnswerSheets(doc, font, spec, template, sheets);
  return doc.save();
}

/** An empty PDF with the product's metadata and the Chinese font embedded (as a subset). */
export async function createSheetDocument(title: string, subject: string): Promise<{ doc: PDFDocument; font: PDFFont }> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(longLocaFontkit);
  doc.setTitle(title);
  doc.setSubject(subject);
  doc.setCreator('智慧作业');
  doc.setProducer('智慧作业');
  const font = await doc.embedFont(await loadFont(), { subset: true });
  return { doc, font };
}

/**
 * The template pages of a document by what is drawn on them (`null`: drawn once, straight on its page),
 * so students whose sheets lay out alike (a class set; personal sets with the same question types and
 * points) share one stamped form per page, and a page drawn only once costs no form.
 */
export type SheetFormCache = Map<string, PDFEmbeddedPage | null>;

/** Adds the sheets' pages at the end of `doc` (another document's pages may come before and after). */
export async function appendAnswerSheets(
  doc: PDFDocument,
  font: PDFFont,
  spec: AnswerSheetSpec,
  template: AnswerSheetTemplate,
  sheets: AnswerSheetCopy[],
  cache: SheetFormCache = new Map(),
): Promise<void> {
  const size: [number, number] = [template.pageWidthMm * PT_PER_MM, template.pageHeightMm * PT_PER_MM];

  // Everything but the QR and the student's name and code is the same on every sheet: draw each
  // template page once, on a scratch page, and stamp it as a form XObject. Laying out CJK text is the
  // slow part of pdf-lib, and a class of sheets then shares one copy of it. A page seen for the first
  // time in a document, for one sheet, is drawn straight on that sheet instead.
  const shared = template.pages.map((layout, i) => {
    const decorations = sheetPageDecorations(spec, template, i);
    return { layout, decorations, key: JSON.stringify([size, layout, decorations]) };
  });
  const forms: (PDFEmbeddedPage | null)[] = [];
  for (const { layout, decorations, key } of shared) {
    let form = cache.get(key);
    if (form === undefined && sheets.length === 1) {
      cache.set(key, null);
      forms.push(null);
      continue;
    }
    if (!form) {
      const scratch = doc.addPage(size);
      drawSharedContent(new MmCanvas(scratch, template.pageHeightMm, font), layout, decorations);
      form = await doc.embedPage(scratch);
      await form.embed();
      doc.removePage(doc.getPageCount() - 1);
      dropObjects(doc, scratch);
      cache.set(key, form);
    }
    forms.push(form);
  }

  for (const sheet of sheets) {
    for (const [i, { layout, decorations }] of shared.entries()) {
      const page = doc.addPage(size);
      const canvas = new MmCanvas(page, template.pageHeightMm, font);
      const form = forms[i];
      if (form) page.drawPage(form, { x: 0, y: 0 });
      else drawSharedContent(canvas, layout, decorations);
      const { student } = sheet;
      if (student) drawTexts(canvas, sheetStudentTexts(layout, student));
      canvas.qr(
        encodeSheetQr({ homeworkId: template.homeworkId, page: layout.page, ...(student ? { studentCode: student.code } : {}) }),
        layout.qr,
      );
    }
  }
}

/** Forgets a removed page and its content streams, now copied into a form, so they are not saved twice. */
function dropObjects(doc: PDFDocument, page: PDFPage): void {
  const contents = page.node.normalizedEntries().Contents;
  for (let i = 0; i < (contents?.size() ?? 0); i += 1) {
    const ref = contents?.get(i);
    if (ref instanceof PDFRef) doc.context.delete(ref);
  }
  doc.context.delete(page.ref);
}

function drawSharedContent(canvas: MmCanvas, layout: AnswerSheetPage, decorations: SheetDecorations): void {
  for (const f of layout.fiducials) {
    canvas.fillRect({ xMm: f.xMm - f.sizeMm / 2, yMm: f.yMm - f.sizeMm / 2, wMm: f.sizeMm, hMm: f.sizeMm });
  }
  canvas.strokeRect(layout.studentBlock.nameBox, 0.3, INK);
  canvas.strokeRect(layout.studentBlock.codeBox, 0.3, INK);
  for (const block of layout.objectiveBlocks) canvas.strokeRect(block, 0.2, FRAME);
  for (const q of layout.objective) {
    for (const o of q.options) canvas.bubble(o);
  }
  for (const r of layout.regions) canvas.strokeRect(r, 0.3, INK);
  for (const l of decorations.lines)
    canvas.line(l.x1Mm, l.y1Mm, l.x2Mm, l.y2Mm, l.tone === 'ink' ? 0.25 : 0.15, l.tone === 'ink' ? INK : FAINT);
  drawTexts(canvas, decorations.texts);
}

function drawTexts(canvas: MmCanvas, texts: SheetText[]): void {
  for (const t of texts)
    canvas.text(t.text, t.xMm, t.baselineMm, t.sizeMm, t.align, t.tone === 'ink' ? INK : FAINT, t.maxWidthMm);
}

/** A pdf-lib page addressed in millimetres from the top-left corner. */
export class MmCanvas {
  constructor(
    private readonly page: PDFPage,
    private readonly heightMm: number,
    private readonly font: PDFFont,
  ) {
    // The page's font, set once: drawText given a font names it afresh in the page's resources on every call
    // (twice, putting the old one back), which made a page's resources longer than its drawing.
    page.setFont(font);
  }

  private x(mm: number) {
    return mm * PT_PER_MM;
  }

  private y(mm: number) {
    return (this.heightMm - mm) * PT_PER_MM;
  }

  fillRect(r: MmRect) {
    this.page.drawRectangle({
      x: this.x(r.xMm),
      y: this.y(r.yMm + r.hMm),
      width: r.wMm * PT_PER_MM,
      height: r.hMm * PT_PER_MM,
      color: INK,
    });
  }

  /** The outline stays inside the rectangle: the stroke is centred on the path, so inset it by half. */
  strokeRect(r: MmRect, lineMm: number, color: typeof INK) {
    const inset = lineMm / 2;
    this.page.drawRectangle({
      x: this.x(r.xMm + inset),
      y: this.y(r.yMm + r.hMm - inset),
      width: (r.wMm - lineMm) * PT_PER_MM,
      height: (r.hMm - lineMm) * PT_PER_MM,
      borderColor: color,
      borderWidth: lineMm * PT_PER_MM,
    });
  }

  bubble(r: MmRect) {
    const lineMm = 0.3;
    this.page.drawEllipse({
      x: this.x(r.xMm + r.wMm / 2),
      y: this.y(r.yMm + r.hMm / 2),
      xScale: ((r.wMm - lineMm) / 2) * PT_PER_MM,
      yScale: ((r.hMm - lineMm) / 2) * PT_PER_MM,
      borderColor: INK,
      borderWidth: lineMm * PT_PER_MM,
    });
  }

  line(x1: number, y1: number, x2: number, y2: number, lineMm: number, color: typeof INK) {
    this.page.drawLine({
      start: { x: this.x(x1), y: this.y(y1) },
      end: { x: this.x(x2), y: this.y(y2) },
      thickness: lineMm * PT_PER_MM,
      color,
    });
  }

  text(
    text: string,
    xMm: number,
    baselineMm: number,
    sizeMm: number,
    align: 'start' | 'middle' | 'end',
    color: typeof INK,
    maxWidthMm?: number,
  ) {
    let size = sizeMm * PT_PER_MM;
    if (align === 'start' && maxWidthMm === undefined) {
      // Nothing to centre or fit: measuring the text (slow for CJK) would be wasted.
      this.page.drawText(text, { x: this.x(xMm), y: this.y(baselineMm), size, color });
      return;
    }
    let width = this.font.widthOfTextAtSize(text, size);
    const max = maxWidthMm === undefined ? Infinity : maxWidthMm * PT_PER_MM;
    if (width > max) {
      size *= max / width;
      width = max;
    }
    const shift = align === 'middle' ? width / 2 : align === 'end' ? width : 0;
    this.page.drawText(text, { x: this.x(xMm) - shift, y: this.y(baselineMm), size, color });
  }

  /**
   * The QR symbol as filled vector rectangles (one per run of dark modules): crisp at any dpi. Written
   * as its own content stream of plain operators, after what is already drawn: parsing the same path as
   * SVG in pdf-lib cost more than encoding the symbol.
   */
  qr(text: string, { xMm, yMm, sizeMm }: SheetQrPlacement) {
    const { runs, modules } = sheetQrRuns(text);
    const unit = (sizeMm / modules) * PT_PER_MM;
    const left = this.x(xMm);
    const top = this.y(yMm);
    const n = (v: number) => (Math.round(v * 1000) / 1000).toString();
    let ops = 'q 0 g\n';
    for (const { row, start, length } of runs) {
      ops += `${n(left + start * unit)} ${n(top - (row + 1) * unit)} ${n(length * unit)} ${n(unit)} re\n`;
    }
    ops += 'f\nQ\n';
    const context = this.page.doc.context;
    this.page.node.addContentStream(context.register(context.flateStream(ops)));
  }
}
