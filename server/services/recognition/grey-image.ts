/**
 * The scanned page as the recognition steps see it: one 8-bit grey channel, decoded once per page with
 * sharp, plus the few pixel statistics every step needs (percentiles of a window, dark share). Owns
 * decoding only; where things are on the page is the other steps' business.
 */
import sharp from 'sharp';
import type { AffineTransform } from '../../../src/shared/contract/recognition';

export type GreyImage = { data: Uint8Array; width: number; height: number };

/**
 * Decodes a scanned JPEG to one grey byte per pixel. A colour JPEG gives its green channel: sharp's
 * greyscale conversion goes through linear light and costs three times as much, and on a black and
 * white page the three channels agree; green is also where both blue and black pen ink are dark.
 * An image with an alpha channel (a PNG from a scan tool or an editor) is laid on white paper first:
 * its transparent parts are paper whatever colour they hide (often black).
 */
export async function decodeGrey(image: Buffer): Promise<GreyImage> {
  const decoder = sharp(image, { failOn: 'truncated' });
  const { channels, hasAlpha } = await decoder.metadata();
  const pipeline = hasAlpha
    ? decoder.flatten({ background: '#ffffff' }).extractChannel(1)
    : channels === undefined || channels < 3
      ? decoder.extractChannel(0)
      : decoder.extractChannel(1);
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`Expected one channel, got ${info.channels}`);
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/**
 * The image's pixel rectangle (inclusive, clipped to the image) that holds the template rectangle of
 * half-sizes `rx` by `ry` mm around (`cx`, `cy`) mm, placed by `t` from mm to pixels.
 */
export function pixelBox(
  img: GreyImage,
  t: AffineTransform,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
): { left: number; right: number; top: number; bottom: number } {
  const corners = [
    [-rx, -ry],
    [rx, -ry],
    [-rx, ry],
    [rx, ry],
  ].map(([du, dv]) => ({ x: t.a * (cx + du!) + t.c * (cy + dv!) + t.e, y: t.b * (cx + du!) + t.d * (cy + dv!) + t.f }));
  return {
    left: Math.max(0, Math.floor(Math.min(...corners.map((p) => p.x)))),
    right: Math.min(img.width - 1, Math.ceil(Math.max(...corners.map((p) => p.x)))),
    top: Math.max(0, Math.floor(Math.min(...corners.map((p) => p.y)))),
    bottom: Math.min(img.height - 1, Math.ceil(Math.max(...corners.map((p) => p.y)))),
  };
}

/** A 256-bin histogram of a rectangle, sampling every `step`th pixel in both directions. */
/** The grey at a point between pixels, bilinear; paper white (255) outside the image. */
export function greyAt(img: GreyImage, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= img.width - 1 || y >= img.height - 1) return 255;
  const x0 = x | 0;
  const y0 = y | 0;
  const ax = x - x0;
  const ay = y - y0;
  const k = y0 * img.width + x0;
  const top = img.data[k]! + ax * (img.data[k + 1]! - img.data[k]!);
  const bottom = img.data[k + img.width]! + ax * (img.data[k + img.width + 1]! - img.data[k + img.width]!);
  return top + ay * (bottom - top);
}

export function histogram(img: GreyImage, x0: number, y0: number, x1: number, y1: number, step = 1): Uint32Array {
  const hist = new Uint32Array(256);
  const left = Math.max(0, Math.floor(x0));
  const top = Math.max(0, Math.floor(y0));
  const right = Math.min(img.width, Math.ceil(x1));
  const bottom = Math.min(img.height, Math.ceil(y1));
  for (let y = top; y < bottom; y += step) {
    const row = y * img.width;
    for (let x = left; x < right; x += step) hist[img.data[row + x]!]! += 1;
  }
  return hist;
}

/** The grey value below which `share` of the histogram's pixels lie (255 for an empty histogram). */
export function percentile(hist: Uint32Array, share: number): number {
  let total = 0;
  for (let v = 0; v < 256; v += 1) total += hist[v] as number;
  if (total === 0) return 255;
  const target = share * total;
  let seen = 0;
  for (let v = 0; v < 256; v += 1) {
    seen += hist[v] as number;
    if (seen >= target) return v;
  }
  return 255;
}

/** Share of the histogram's pixels darker than `below`. */
export function darkShare(hist: Uint32Array, below: number): number {
  let total = 0;
  let dark = 0;
  for (let v = 0; v < 256; v += 1) {
    total += hist[v] as number;
    if (v < below) dark += hist[v] as number;
  }
  return total === 0 ? 0 : dark / total;
}

/** A rectangle of the image as RGBA (for the barcode reader), downsampled by an integer factor. */
export function cropRgba(
  img: GreyImage,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  factor = 1,
): { data: Uint8ClampedArray; width: number; height: number } {
  const left = Math.max(0, Math.floor(x0));
  const top = Math.max(0, Math.floor(y0));
  const right = Math.min(img.width, Math.ceil(x1));
  const bottom = Math.min(img.height, Math.ceil(y1));
  const width = Math.max(0, Math.floor((right - left) / factor));
  const height = Math.max(0, Math.floor((bottom - top) / factor));
  const data = new Uint8ClampedArray(width * height * 4);
  const words = new Uint32Array(data.buffer);
  const area = factor * factor;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy += 1) {
        const row = (top + y * factor + dy) * img.width + left + x * factor;
        for (let dx = 0; dx < factor; dx += 1) sum += img.data[row + dx] as number;
      }
      const v = Math.round(sum / area);
      // Little-endian RGBA: opaque grey.
      words[y * width + x] = 0xff000000 | (v << 16) | (v << 8) | v;
    }
  }
  return { data, width, height };
}
