/**
 * A scanner driver over files chosen by the user (a folder of scans exported by another scanning
 * program): files in natural name order; an image file (JPEG, PNG, BMP, WebP...) is one page, handed
 * over as an encoded image; a PDF is one page per PDF page, in order, rendered at 300 dpi by the PDF
 * rasteriser (pdf.js, loaded only when a PDF is imported). Other files (and empty ones) are left out and
 * named to `onSkipped` with the reason, so the operator hears which and why.
 * There is one "source", the chosen files; configure is accepted and ignored (the files are already scanned).
 */
import { DriverError, type RawImage } from '../../contract/scan';
import type { ScannerDriver } from './scanner-driver';

export const FILE_IMPORT_SOURCE_NAME = '从文件夹导入图片';

/** A PDF's pages, one at a time, as the consumer asks for the next (see pdf-rasterizer.ts). */
export type PdfRasterizer = (file: Blob) => AsyncIterable<RawImage>;

export type FileImportOptions = {
  /** Renders PDF pages; by default pdf.js at 300 dpi. */
  rasterizePdf?: PdfRasterizer;
  /**
   * Rendered PDF pages that may wait, still in this page's memory, for the pipeline to take them (some
   * 35 MB each); the next page is rendered when fewer wait. Default 2.
   */
  pagesAhead?: number;
  /** Longest wait for the pipeline before rendering the next page anyway. Default 10 s. */
  maxWaitMs?: number;
  /** Told at the start of a scan which chosen files are not imported, and why (say it to the operator). */
  onSkipped?: (skipped: SkippedFile[]) => void;
};

/** A chosen file the import leaves out, and why (Chinese, for the operator). */
export type SkippedFile = { name: string; reason: string };

export const SKIP_REASONS = {
  notImage: '不是图片或 PDF 文件',
  empty: '文件是空的',
} as const;

/** The chosen files an import leaves out, with the reason, in name order. */
export function skippedFiles(files: readonly Pick<File, 'type' | 'name' | 'size'>[]): SkippedFile[] {
  return files
    .flatMap((file): SkippedFile[] => {
      if (!isImportableImage(file) && !isPdfFile(file)) return [{ name: file.name, reason: SKIP_REASONS.notImage }];
      if (file.size === 0) return [{ name: file.name, reason: SKIP_REASONS.empty }];
      return [];
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'zh-CN', { numeric: true }));
}

export function isImportableImage(file: Pick<File, 'type' | 'name'>): boolean {
  return file.type.startsWith('image/') || /\.(jpe?g|png|bmp|webp|gif|tiff?)$/i.test(file.name);
}

export function isPdfFile(file: Pick<File, 'type' | 'name'>): boolean {
  return file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
}

/** The chosen files this driver reads, in the order their pages are handed over. */
export function importOrder<T extends Pick<File, 'type' | 'name' | 'size'>>(files: readonly T[]): T[] {
  return files
    .filter((file) => (isImportableImage(file) || isPdfFile(file)) && file.size !== 0)
    .sort((a, b) => a.name.localeCompare(b.name, 'zh-CN', { numeric: true }));
}

const defaultRasterizePdf: PdfRasterizer = async function* (file) {
  const { rasterizePdf } = await import('./pdf-rasterizer');
  yield* rasterizePdf(file);
};

/** A rendered page the pipeline has not taken yet: a bitmap still holding its pixels here. */
function waiting(image: RawImage): boolean {
  return image.kind === 'bitmap' && image.bitmap.width > 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createFileImportDriver(getFiles: () => readonly File[], options: FileImportOptions = {}): ScannerDriver {
  const rasterizePdf = options.rasterizePdf ?? defaultRasterizePdf;
  const pagesAhead = options.pagesAhead ?? 2;
  const maxWaitMs = options.maxWaitMs ?? 10_000;
  let selected = false;
  return {
    async load() {
      return [FILE_IMPORT_SOURCE_NAME];
    },
    async select(index) {
      if (index !== 0) throw new DriverError('sourceNotSelectable', `no source ${index}`);
      selected = true;
    },
    async configure() {
      if (!selected) throw new DriverError('acquisition', 'source not selected');
    },
    acquire(onImage, onDone, onError) {
      const chosen = getFiles();
      const files = importOrder(chosen);
      const skipped = skippedFiles(chosen);
      if (skipped.length > 0) options.onSkipped?.(skipped);
      let stopped = false;
      let rendered: RawImage[] = [];

      // Renders PDF pages no faster than the pipeline takes them (a bitmap it took is detached here).
      const roomForNextPage = async () => {
        const deadline = Date.now() + maxWaitMs;
        for (;;) {
          rendered = rendered.filter(waiting);
          if (stopped || rendered.length < pagesAhead || Date.now() >= deadline) return;
          await sleep(20);
        }
      };

      const importPdf = async (file: File) => {
        const pages = rasterizePdf(file)[Symbol.asyncIterator]();
        try {
          for (;;) {
            await roomForNextPage();
            if (stopped) return;
            const next = await pages.next();
            if (next.done) return;
            if (stopped) {
              if (next.value.kind === 'bitmap') next.value.bitmap.close();
              return;
            }
            rendered.push(next.value);
            onImage(next.value);
          }
        } catch {
          // Spec §8: a page that cannot be converted is skipped and counted. Handing the pipeline the file
          // itself makes it so: a PDF does not decode as an image.
          if (!stopped) onImage({ kind: 'encoded', blob: file, bitDepth: 24 });
        } finally {
          // Releases the document (and a page being rendered when the scan stopped).
          await pages.return?.().catch(() => undefined);
        }
      };

      void (async () => {
        await Promise.resolve();
        if (stopped) return;
        // -1035: "There is no image" in the scanning service's error list.
        if (files.length === 0) return onError(-1035);
        for (const file of files) {
          if (stopped) return;
          if (isPdfFile(file)) await importPdf(file);
          else onImage({ kind: 'encoded', blob: file, bitDepth: 24 });
        }
        if (!stopped) onDone();
      })().catch(() => {
        if (!stopped) onError(null);
      });
      return () => {
        stopped = true;
      };
    },
    async close() {
      selected = false;
    },
  };
}
