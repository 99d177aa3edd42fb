/**
 * The pure steps of the scan image pipeline (spec §4 step 5, §5 resize targets): expanding raw scanner
 * rows (1-bit, grey, RGB) into RGBA with greyscale for bitonal scans, the resize target of a paper size,
 * and the file name and id of a page. The worker (adapters/scanner/image-pipeline.worker.ts) does the
 * resampling and JPEG encoding around these.
 */
import { OTHER_RESIZE_TARGET, RESIZE_TARGETS, type PixelSize, type PaperSizeCode, type RawImage } from '../contract/scan';

/** The size a page of this paper size is resized to, or null to leave it as scanned (spec §5). */
export function resizeTarget(paperSize: number): PixelSize | null {
  if (Object.hasOwn(RESIZE_TARGETS, paperSize)) return RESIZE_TARGETS[paperSize as PaperSizeCode];
  return OTHER_RESIZE_TARGET;
}

/** The size a scanned image of `scanned` size ends up with. */
export function outputSize(scanned: PixelSize, paperSize: number): PixelSize {
  return resizeTarget(paperSize) ?? scanned;
}

/** Below this relative change of either side a resize is a sub-percent nudge, not a rescale. */
export const LIGHT_RESIZE_TOLERANCE = 0.01;

/**
 * How a page gets to its target size: `none` (already there), `light` (a sub-percent nudge, such as a
 * 300 dpi scanner's 2480x3508 A4 to the 2480x3507 target: the canvas's own smoothing is enough and
 * ten times cheaper), or `full` (a real rescale: pica's filtered resampling).
 */
export function resampling(scanned: PixelSize, target: PixelSize): 'none' | 'light' | 'full' {
  if (scanned.width === target.width && scanned.height === target.height) return 'none';
  const dx = Math.abs(target.width / scanned.width - 1);
  const dy = Math.abs(target.height / scanned.height - 1);
  return dx < LIGHT_RESIZE_TOLERANCE && dy < LIGHT_RESIZE_TOLERANCE ? 'light' : 'full';
}

/** Bytes per row of a 1-bit image: rows are padded to a whole byte. */
export function bitonalStride(width: number): number {
  return Math.ceil(width / 8);
}

/**
 * A 1-bit image as 8-bit greyscale RGBA: a set bit is white (255), a clear bit black (0), every pixel
 * opaque. Grey values in all three channels keep the JPEG a greyscale picture.
 */
export function bitonalToGreyRgba(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
): Uint8ClampedArray<ArrayBuffer> {
  const stride = bitonalStride(width);
  if (data.length < stride * height) throw new Error(`1-bit image needs ${stride * height} bytes, got ${data.length}`);
  const out = new Uint8ClampedArray(width * height * 4);
  // One 32-bit word per pixel: opaque black or opaque white (little-endian RGBA).
  const words = new Uint32Array(out.buffer);
  const black = 0xff000000;
  const white = 0xffffffff;
  for (let y = 0; y < height; y += 1) {
    const row = y * stride;
    const base = y * width;
    for (let x = 0; x < width; x += 1) {
      const byte = data[row + (x >> 3)] as number;
      words[base + x] = byte & (0x80 >> (x & 7)) ? white : black;
    }
  }
  return out;
}

/** Raw rows of any supported depth as RGBA (1-bit becomes greyscale). */
export function pixelsToRgba(raw: Extract<RawImage, { kind: 'pixels' }>): Uint8ClampedArray<ArrayBuffer> {
  const { width, height, bitDepth, data } = raw;
  const count = width * height;
  if (bitDepth === 1) return bitonalToGreyRgba(data, width, height);
  const channels = bitDepth / 8;
  if (data.length < count * channels)
    throw new Error(`${bitDepth}-bit image needs ${count * channels} bytes, got ${data.length}`);
  // Pixels arrive through postMessage, so their buffer is a plain ArrayBuffer.
  if (bitDepth === 32) return new Uint8ClampedArray(data.buffer as ArrayBuffer, data.byteOffset, count * 4);
  const out = new Uint8ClampedArray(count * 4);
  for (let i = 0, j = 0; i < count; i += 1, j += channels) {
    const o = i * 4;
    if (bitDepth === 8) {
      const grey = data[j] as number;
      out[o] = grey;
      out[o + 1] = grey;
      out[o + 2] = grey;
    } else {
      out[o] = data[j] as number;
      out[o + 1] = data[j + 1] as number;
      out[o + 2] = data[j + 2] as number;
    }
    out[o + 3] = 255;
  }
  return out;
}

/** The file name of a scanned page: its image id and `.jpg`. */
export function scannedPageFileName(imageId: string): `${string}.jpg` {
  return `${imageId}.jpg`;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isUuidV4(text: string): boolean {
  return UUID_V4.test(text);
}

/**
 * A v4 UUID from 16 random bytes. `crypto.randomUUID` exists only in secure contexts, and a station
 * reaching the server over plain http on the school network is not one; `getRandomValues` works in both.
 */
export function uuidV4(randomBytes: (bytes: Uint8Array) => Uint8Array): string {
  const b = randomBytes(new Uint8Array(16));
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(b, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
