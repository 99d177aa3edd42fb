/// <reference lib="webworker" />
/**
 * The scan image pipeline's worker, one of a pool (image-pipeline.ts): raw image → (1-bit expanded to
 * greyscale) → the paper size's target → JPEG through OffscreenCanvas.convertToBlob. Answers carry the
 * request id. Per page the JPEG encoder is nearly all of the cost, so everything around it avoids copies:
 * - a JPEG file that step 5 has nothing to do to (upright, 8-bit, complete, of its target size or one
 *   row/column larger) is the page as it is, or with its frame header cropped: no decode, no encode
 *   (lib/scan-image.ts `jpegAsPage`; a folder of a scanning program's JPEGs costs ~2 ms a page);
 * - a page already at its target goes to the encoder as is (a bitmap through a `bitmaprenderer`, which
 *   takes it over without drawing it);
 * - a page within a pixel of its target (a 300 dpi scanner's 2480x3508 A4) is encoded as scanned and its
 *   JPEG declared one row/column smaller (lib/scan-image.ts `cropJpegFrame`); one a pixel short is drawn
 *   onto a white page of the target size;
 * - a real rescale (16k, other sizes, another resolution) is the browser's own high-quality resize
 *   (createImageBitmap), about six times cheaper than pica's wasm filters at nearly the same quality
 *   (`resampled` below; the bench prints the comparison).
 */
import type { PixelSize, RawImage } from '../../contract/scan';
import { cropJpegFrame, jpegAsPage, outputSize, pixelsToRgba, sizing } from '../../lib/scan-image';
import type { PipelineRequest, PipelineResponse } from './image-pipeline';

/** A decoded page: a bitmap, or RGBA rows (scanner pixels, already greyscale when 1-bit). */
type Decoded = { kind: 'bitmap'; bitmap: ImageBitmap } | { kind: 'rgba'; rgba: Uint8ClampedArray<ArrayBuffer> };

type Encoded = { blob: Blob; width: number; height: number };

async function decode(raw: RawImage): Promise<{ page: Decoded; size: PixelSize }> {
  if (raw.kind === 'pixels') {
    return { page: { kind: 'rgba', rgba: pixelsToRgba(raw) }, size: { width: raw.width, height: raw.height } };
  }
  const bitmap = raw.kind === 'bitmap' ? raw.bitmap : await createImageBitmap(raw.blob);
  return { page: { kind: 'bitmap', bitmap }, size: { width: bitmap.width, height: bitmap.height } };
}

// One 2D canvas per worker, reused page after page: its 35 MB backing store is not reallocated while the
// page size stays the same. convertToBlob snapshots the canvas when called, so the next page may draw.
let scratch: OffscreenCanvas | null = null;
function scratchContext(size: PixelSize): OffscreenCanvasRenderingContext2D {
  if (!scratch) scratch = new OffscreenCanvas(size.width, size.height);
  else if (scratch.width !== size.width || scratch.height !== size.height) {
    scratch.width = size.width;
    scratch.height = size.height;
  }
  return scratch.getContext('2d', { alpha: false })!;
}

/** A canvas holding the page at its own size, without drawing it when it is a bitmap. */
function canvasOf(page: Decoded, size: PixelSize): OffscreenCanvas {
  if (page.kind === 'rgba') {
    const ctx = scratchContext(size);
    ctx.putImageData(new ImageData(page.rgba, size.width, size.height), 0, 0);
    return ctx.canvas;
  }
  const canvas = new OffscreenCanvas(size.width, size.height);
  canvas.getContext('bitmaprenderer')!.transferFromImageBitmap(page.bitmap);
  return canvas;
}

async function bitmapOf(page: Decoded, size: PixelSize): Promise<ImageBitmap> {
  return page.kind === 'bitmap' ? page.bitmap : createImageBitmap(new ImageData(page.rgba, size.width, size.height));
}

/** The page on a white page of `target` size, at its top left corner (crops or pads the right and bottom edge). */
async function placed(page: Decoded, size: PixelSize, target: PixelSize): Promise<OffscreenCanvas> {
  const ctx = scratchContext(target);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, target.width, target.height);
  const bitmap = await bitmapOf(page, size);
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  return ctx.canvas;
}

/**
 * A real rescale by the browser's own resize (createImageBitmap, resizeQuality 'high': mipmaps for strong
 * reductions, a smooth filter otherwise), chosen over pica with numbers from the scan-pipeline bench:
 * 16k from a 300 dpi A4 scan costs ~68 ms of Chromium CPU with the encode instead of ~420 ms with pica's
 * mks2013 (~395 with its lanczos3), at 41.3 dB PSNR / 0.9975 SSIM against sharp's Lanczos-3 (pica
 * mks2013 44.7 dB / 0.9989) and with every bubble of the test sheets read the same.
 */
async function resampled(page: Decoded, size: PixelSize, target: PixelSize): Promise<OffscreenCanvas> {
  const source = page.kind === 'bitmap' ? page.bitmap : new ImageData(page.rgba, size.width, size.height);
  const bitmap = await createImageBitmap(source, {
    resizeWidth: target.width,
    resizeHeight: target.height,
    resizeQuality: 'high',
  });
  if (page.kind === 'bitmap') page.bitmap.close();
  return canvasOf({ kind: 'bitmap', bitmap }, target);
}

function jpegOf(canvas: OffscreenCanvas, quality: number): Promise<Blob> {
  return canvas.convertToBlob({ type: 'image/jpeg', quality });
}

/** A JPEG file that needs nothing done to it (lib/scan-image.ts `jpegAsPage`) is the page as it is. */
async function passedThrough(raw: RawImage, paperSize: number): Promise<Encoded | null> {
  if (raw.kind !== 'encoded') return null;
  // Whatever the file's name or type says: only a JPEG's first bytes are FF D8 (a PNG is not read whole here).
  const head = new Uint8Array(await raw.blob.slice(0, 2).arrayBuffer());
  if (head[0] !== 0xff || head[1] !== 0xd8) return null;
  const page = jpegAsPage(new Uint8Array(await raw.blob.arrayBuffer()), paperSize);
  if (!page) return null;
  const blob = new Blob([page.jpeg as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' });
  return { blob, ...page.size };
}

async function convert(request: PipelineRequest): Promise<Encoded> {
  const passed = await passedThrough(request.raw, request.paperSize);
  if (passed) return passed;
  const { page, size } = await decode(request.raw);
  const target = outputSize(size, request.paperSize);
  const how = sizing(size, target);
  if (how === 'none') return { blob: await jpegOf(canvasOf(page, size), request.quality), ...target };
  if (how === 'resample') return { blob: await jpegOf(await resampled(page, size, target), request.quality), ...target };
  if (target.width <= size.width && target.height <= size.height) {
    // Crop: encode as scanned, then declare the JPEG one row/column smaller (free when the MCU grid stays).
    const canvas = canvasOf(page, size);
    const jpeg = new Uint8Array(await (await jpegOf(canvas, request.quality)).arrayBuffer());
    if (cropJpegFrame(jpeg, target)) return { blob: new Blob([jpeg], { type: 'image/jpeg' }), ...target };
    // The grid would change (or the encoder wrote another frame type): crop by drawing.
    const bitmap = await createImageBitmap(canvas, 0, 0, target.width, target.height);
    return { blob: await jpegOf(canvasOf({ kind: 'bitmap', bitmap }, target), request.quality), ...target };
  }
  return { blob: await jpegOf(await placed(page, size, target), request.quality), ...target };
}

self.addEventListener('message', (event: MessageEvent<PipelineRequest>) => {
  const { id } = event.data;
  convert(event.data).then(
    (result) => self.postMessage({ id, ok: true, ...result } satisfies PipelineResponse),
    (error: unknown) =>
      self.postMessage({
        id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      } satisfies PipelineResponse),
  );
});
