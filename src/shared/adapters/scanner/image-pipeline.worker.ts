/// <reference lib="webworker" />
/**
 * The scan image pipeline's worker: raw image → RGBA (1-bit expanded to greyscale) → resized to the
 * paper size's target with pica (Lanczos-class "mks2013" filter, off the main thread) → JPEG through
 * OffscreenCanvas.convertToBlob. One request at a time per message; answers carry the request id.
 */
import pica from 'pica';
import type { RawImage } from '../../contract/scan';
import { outputSize, pixelsToRgba } from '../../lib/scan-image';
import type { PipelineRequest, PipelineResponse } from './image-pipeline';

// Already inside a worker: resize in this thread (wasm where available) rather than spawn more workers.
const resizer = pica({ features: ['js', 'wasm'] });

type Source = { image: OffscreenCanvas | ImageBitmap; width: number; height: number };

async function decode(raw: RawImage): Promise<Source> {
  if (raw.kind === 'bitmap') return { image: raw.bitmap, width: raw.bitmap.width, height: raw.bitmap.height };
  if (raw.kind === 'encoded') {
    const bitmap = await createImageBitmap(raw.blob);
    return { image: bitmap, width: bitmap.width, height: bitmap.height };
  }
  const canvas = new OffscreenCanvas(raw.width, raw.height);
  const rgba = pixelsToRgba(raw);
  canvas.getContext('2d')!.putImageData(new ImageData(rgba, raw.width, raw.height), 0, 0);
  return { image: canvas, width: raw.width, height: raw.height };
}

async function toJpeg(request: PipelineRequest): Promise<{ blob: Blob; width: number; height: number }> {
  const source = await decode(request.raw);
  const size = outputSize({ width: source.width, height: source.height }, request.paperSize);
  let canvas: OffscreenCanvas;
  if (size.width === source.width && size.height === source.height) {
    if (source.image instanceof OffscreenCanvas) canvas = source.image;
    else {
      canvas = new OffscreenCanvas(size.width, size.height);
      canvas.getContext('2d')!.drawImage(source.image, 0, 0);
    }
  } else {
    canvas = await resizer.resize(source.image, new OffscreenCanvas(size.width, size.height));
  }
  if (source.image instanceof ImageBitmap) source.image.close();
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
