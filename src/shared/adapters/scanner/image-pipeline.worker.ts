/// <reference lib="webworker" />
/**
 * The scan image pipeline's worker: raw image → RGBA (1-bit expanded to greyscale) → resized to the
 * paper size's target → JPEG through OffscreenCanvas.convertToBlob. A real rescale (16k, other sizes,
 * a scan far from A4's target) goes through pica ("mks2013" filter, wasm, in this thread); a page
 * already at its target is encoded as is, and a sub-percent nudge (lib/scan-image.ts `resampling`) is
 * left to the canvas's high-quality smoothing.
 * Answers carry the request id.
 */
import pica from 'pica';
import type { PixelSize, RawImage } from '../../contract/scan';
import { outputSize, pixelsToRgba, resampling } from '../../lib/scan-image';
import type { PipelineRequest, PipelineResponse } from './image-pipeline';

// pica's canvas path cannot make canvases inside a worker, so resize raw buffers (wasm where available).
const resizer = pica({ features: ['js', 'wasm'] });

/** A decoded page: drawable (bitmap) or raw RGBA rows. */
type Decoded =
  | { kind: 'bitmap'; bitmap: ImageBitmap; width: number; height: number }
  | { kind: 'rgba'; rgba: Uint8ClampedArray<ArrayBuffer>; width: number; height: number };

async function decode(raw: RawImage): Promise<Decoded> {
  if (raw.kind === 'pixels') return { kind: 'rgba', rgba: pixelsToRgba(raw), width: raw.width, height: raw.height };
  const bitmap = raw.kind === 'bitmap' ? raw.bitmap : await createImageBitmap(raw.blob);
  return { kind: 'bitmap', bitmap, width: bitmap.width, height: bitmap.height };
}

function rgbaOf(page: Decoded): Uint8ClampedArray<ArrayBuffer> {
  if (page.kind === 'rgba') return page.rgba;
  const canvas = new OffscreenCanvas(page.width, page.height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(page.bitmap, 0, 0);
  return ctx.getImageData(0, 0, page.width, page.height).data;
}

function canvasOf(rgba: Uint8ClampedArray<ArrayBuffer>, width: number, height: number): OffscreenCanvas {
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d')!.putImageData(new ImageData(rgba, width, height), 0, 0);
  return canvas;
}

/** The page drawn onto a canvas of `size`: as is, or scaled by the canvas with high-quality smoothing. */
function drawn(page: Decoded, size: PixelSize): OffscreenCanvas {
  const same = size.width === page.width && size.height === page.height;
  if (page.kind === 'rgba' && same) return canvasOf(page.rgba, size.width, size.height);
  const source = page.kind === 'rgba' ? canvasOf(page.rgba, page.width, page.height) : page.bitmap;
  const canvas = new OffscreenCanvas(size.width, size.height);
  const ctx = canvas.getContext('2d')!;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, size.width, size.height);
  return canvas;
}

async function toJpeg(request: PipelineRequest): Promise<{ blob: Blob; width: number; height: number }> {
  const page = await decode(request.raw);
  const size = outputSize({ width: page.width, height: page.height }, request.paperSize);
  let canvas: OffscreenCanvas;
  if (resampling(page, size) === 'full') {
    const resized = await resizer.resizeBuffer({
      src: rgbaOf(page),
      width: page.width,
      height: page.height,
      toWidth: size.width,
      toHeight: size.height,
    });
    canvas = canvasOf(
      new Uint8ClampedArray(resized.buffer as ArrayBuffer, resized.byteOffset, resized.length),
      size.width,
      size.height,
    );
  } else {
    canvas = drawn(page, size);
  }
  if (page.kind === 'bitmap') page.bitmap.close();
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: request.quality });
  return { blob, width: size.width, height: size.height };
}

self.addEventListener('message', (event: MessageEvent<PipelineRequest>) => {
  const { id } = event.data;
  toJpeg(event.data).then(
    (result) => self.postMessage({ id, ok: true, ...result } satisfies PipelineResponse),
    (error: unknown) =>
      self.postMessage({
        id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      } satisfies PipelineResponse),
  );
});
