/**
 * A PDF's pages as scanned pages: each page rendered at 300 dpi with pdf.js (pdfjs-dist) onto an
 * OffscreenCanvas and handed over as a bitmap, in page order. Only the file-import driver loads this
 * module, and only when a PDF is imported (a dynamic import), so pdf.js stays out of every other page.
 * pdf.js's worker, its image codecs (wasm: JBIG2, JPEG 2000, as scanners write them), CMaps and
 * standard fonts are files of our own build, emitted by Vite from the package: no CDN.
 */
import { GlobalWorkerOptions, getDocument, type PDFDocumentLoadingTask } from 'pdfjs-dist';
import pdfWorkerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import jbig2WasmUrl from 'pdfjs-dist/wasm/jbig2.wasm?url&no-inline';
import openjpegWasmUrl from 'pdfjs-dist/wasm/openjpeg.wasm?url&no-inline';
import { SCAN_RESOLUTION, type RawImage } from '../../contract/scan';

// Emitted as files, fetched only when a document needs one.
const cMapUrls = import.meta.glob<string>('../../../../node_modules/pdfjs-dist/cmaps/*.bcmap', {
  query: '?url&no-inline',
  import: 'default',
  eager: true,
});
const fontUrls = import.meta.glob<string>('../../../../node_modules/pdfjs-dist/standard_fonts/*.{pfb,ttf}', {
  query: '?url&no-inline',
  import: 'default',
  eager: true,
});
const wasmUrls: Record<string, string> = { 'jbig2.wasm': jbig2WasmUrl, 'openjpeg.wasm': openjpegWasmUrl };

function byFileName(urls: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(urls).map(([path, url]) => [path.slice(path.lastIndexOf('/') + 1), url]));
}
const resources = {
  cMapUrl: byFileName(cMapUrls),
  standardFontDataUrl: byFileName(fontUrls),
  wasmUrl: new Map(Object.entries(wasmUrls)),
};

/**
 * pdf.js asks for its resources by directory and file name; Vite names the files by content hash. This
 * answers each request from the build's own file (pdf.js then passes the bytes to its worker).
 */
class BuildResources {
  async fetch({ kind, filename }: { kind: keyof typeof resources; filename: string }): Promise<Uint8Array> {
    const url = resources[kind]?.get(filename);
    if (!url) throw new Error(`pdf.js resource ${kind} ${filename} is not in the build`);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`pdf.js resource ${filename}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
}

/** Pixels of a page `points` (1/72 inch) long at `dpi`. */
export function pagePixels(points: number, dpi: number = SCAN_RESOLUTION): number {
  return Math.max(1, Math.round((points * dpi) / 72));
}

/**
 * The pages of a PDF, rendered one at a time as the consumer asks for the next one (a page at 300 dpi
 * is some 35 MB of pixels). Stopping the iteration releases the document. Throws when the file is not
 * a readable PDF. A page that cannot be rendered is handed over as the PDF file itself, which the
 * pipeline cannot decode: it is skipped and counted as a failed page (spec §8), and the pages after it
 * still come.
 */
export async function* rasterizePdf(file: Blob, dpi: number = SCAN_RESOLUTION): AsyncGenerator<RawImage> {
  GlobalWorkerOptions.workerSrc = pdfWorkerUrl;
  const task: PDFDocumentLoadingTask = getDocument({
    data: new Uint8Array(await file.arrayBuffer()),
    BinaryDataFactory: BuildResources,
    useWorkerFetch: false,
    isEvalSupported: false,
  });
  try {
    const doc = await task.promise;
    for (let number = 1; number <= doc.numPages; number += 1) {
      let image: RawImage;
      try {
        const page = await doc.getPage(number);
        const unscaled = page.getViewport({ scale: 1 });
        const width = pagePixels(unscaled.width, dpi);
        const height = pagePixels(unscaled.height, dpi);
        // Scaled so that the page fills the canvas exactly (the rounding of its size included).
        const viewport = page.getViewport({ scale: width / unscaled.width });
        const canvas = new OffscreenCanvas(width, height);
        const context = canvas.getContext('2d', { alpha: false })!;
        await page.render({
          canvas: null,
          canvasContext: context as unknown as CanvasRenderingContext2D,
          viewport,
          background: '#ffffff',
        }).promise;
        page.cleanup();
        image = { kind: 'bitmap', bitmap: canvas.transferToImageBitmap(), bitDepth: 24 };
      } catch {
        image = { kind: 'encoded', blob: file, bitDepth: 24 };
      }
      yield image;
    }
  } finally {
    await task.destroy();
  }
}
