/**
 * The pure steps of the scan image pipeline (spec §4 step 5, §5 resize targets): expanding raw scanner
 * rows (1-bit, grey, RGB) into RGBA with greyscale for bitonal scans, the resize target of a paper size
 * and how a scan gets there, trimming a JPEG's last row or column through its frame header, and the file
 * name and id of a page. The worker (adapters/scanner/image-pipeline.worker.ts) does the resampling and
 * JPEG encoding around these.
 */
import type { PaperSizeCode, RawImage } from '../contract/scan';
import { OTHER_RESIZE_TARGET, RESIZE_TARGETS, type PixelSize } from '../contract/scan-sizes';

/** The size a page of this paper size is resized to, or null to leave it as scanned (spec §5). */
export function resizeTarget(paperSize: number): PixelSize | null {
  if (Object.hasOwn(RESIZE_TARGETS, paperSize)) return RESIZE_TARGETS[paperSize as PaperSizeCode];
  return OTHER_RESIZE_TARGET;
}

/** The size a scanned image of `scanned` size ends up with. */
export function outputSize(scanned: PixelSize, paperSize: number): PixelSize {
  return resizeTarget(paperSize) ?? scanned;
}

/** How far (px, per side) a scan may be from its target and still be cropped or padded instead of resampled. */
export const EDGE_FIT_PX = 1;

/**
 * How a page gets to its target size: `none` (already there), `edge` (within {@link EDGE_FIT_PX} on both
 * sides: crop or pad the right and bottom edge; a 300 dpi scanner's A4 is 2480x3508 for the 2480x3507
 * target, and resampling it by one row would soften every line of the page), or `resample` (a real
 * rescale, such as 16k or a scan at another resolution).
 */
export function sizing(scanned: PixelSize, target: PixelSize): 'none' | 'edge' | 'resample' {
  const dw = Math.abs(scanned.width - target.width);
  const dh = Math.abs(scanned.height - target.height);
  if (dw === 0 && dh === 0) return 'none';
  return dw <= EDGE_FIT_PX && dh <= EDGE_FIT_PX ? 'edge' : 'resample';
}

/**
 * Declares a baseline JPEG smaller than it was encoded (crops its right and bottom edge) by rewriting the
 * frame header, in place. Decoders lay the entropy-coded data out on the MCU grid and cut it to the
 * declared size, so this is exact and free as long as the grid stays the same; returns false (leaving
 * the bytes untouched) when it would not, when the size grows, or when the file is not a plain
 * sequential (SOF0/SOF1) JPEG.
 */
export function cropJpegFrame(jpeg: Uint8Array, size: PixelSize): boolean {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return false;
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) return false;
    const marker = jpeg[at + 1] as number;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = ((jpeg[at + 2] as number) << 8) | (jpeg[at + 3] as number);
    if (marker === 0xc0 || marker === 0xc1) return rewriteFrame(jpeg, at + 4, length - 2, size);
    // Any other frame type (progressive, lossless, arithmetic), or the scan before a frame: leave it.
    if ((marker >= 0xc2 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === 0xda)
      return false;
    at += 2 + length;
  }
  return false;
}

function rewriteFrame(jpeg: Uint8Array, start: number, length: number, size: PixelSize): boolean {
  const height = ((jpeg[start + 1] as number) << 8) | (jpeg[start + 2] as number);
  const width = ((jpeg[start + 3] as number) << 8) | (jpeg[start + 4] as number);
  const count = jpeg[start + 5] as number;
  if (length < 6 + count * 3 || count === 0 || height === 0) return false;
  if (size.width > width || size.height > height || size.width < 1 || size.height < 1) return false;
  const sampling = Array.from({ length: count }, (_, i) => {
    const byte = jpeg[start + 6 + i * 3 + 1] as number;
    return { h: byte >> 4, v: byte & 0x0f };
  });
  const hMax = Math.max(...sampling.map((c) => c.h));
  const vMax = Math.max(...sampling.map((c) => c.v));
  const sameGrid = (from: number, to: number, factor: number, max: number) =>
    // The interleaved scan's MCUs, and each component's own blocks (a single-component scan uses those).
    Math.ceil(from / (8 * max)) === Math.ceil(to / (8 * max)) &&
    Math.ceil(Math.ceil((from * factor) / max) / 8) === Math.ceil(Math.ceil((to * factor) / max) / 8);
  if (!sampling.every((c) => sameGrid(width, size.width, c.h, hMax) && sameGrid(height, size.height, c.v, vMax))) return false;
  jpeg[start + 1] = size.height >> 8;
  jpeg[start + 2] = size.height & 0xff;
  jpeg[start + 3] = size.width >> 8;
  jpeg[start + 4] = size.width & 0xff;
  return true;
}

/** Bytes per row of a 1-bit image: rows are padded to a whole byte. */
export function bitonalStride(width: number): number {
  return Math.ceil(width / 8);
}

/** The 8 RGBA words (little-endian: opaque black or opaque white) of each possible byte of 1-bit pixels. */
let bitonalWords: Uint32Array | null = null;
function bitonalWordTable(): Uint32Array {
  if (bitonalWords) return bitonalWords;
  const black = 0xff000000;
  const white = 0xffffffff;
  bitonalWords = new Uint32Array(256 * 8);
  for (let byte = 0; byte < 256; byte += 1) {
    for (let bit = 0; bit < 8; bit += 1) bitonalWords[byte * 8 + bit] = byte & (0x80 >> bit) ? white : black;
  }
  return bitonalWords;
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
  const words = new Uint32Array(out.buffer);
  const table = bitonalWordTable();
  // A whole byte (8 pixels) at a time from the table: an A4 page is 1.1 million bytes.
  const whole = width >> 3;
  const rest = width & 7;
  for (let y = 0; y < height; y += 1) {
    const row = y * stride;
    let o = y * width;
    for (let i = 0; i < whole; i += 1, o += 8) {
      const t = (data[row + i] as number) << 3;
      words[o] = table[t] as number;
      words[o + 1] = table[t + 1] as number;
      words[o + 2] = table[t + 2] as number;
      words[o + 3] = table[t + 3] as number;
      words[o + 4] = table[t + 4] as number;
      words[o + 5] = table[t + 5] as number;
      words[o + 6] = table[t + 6] as number;
      words[o + 7] = table[t + 7] as number;
    }
    if (rest > 0) {
      const t = (data[row + whole] as number) << 3;
      for (let bit = 0; bit < rest; bit += 1) words[o + bit] = table[t + bit] as number;
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

/** What a JPEG file's headers say, read without decoding it (see {@link jpegInfo}). */
export type JpegInfo = {
  width: number;
  height: number;
  /** 1 = greyscale, 3 = YCbCr (or RGB), 4 = CMYK/YCCK. */
  components: number;
  /** Sample precision in bits (8 in almost every file; 12-bit JPEGs do not decode in browsers). */
  precision: number;
  /** Sequential (SOF0/SOF1, the only kind {@link cropJpegFrame} crops) or progressive (SOF2). */
  progressive: boolean;
  /** The EXIF orientation tag (1–8), 1 when there is none. */
  orientation: number;
  /** The file ends with its EOI marker (only padding after it): it was not cut short. */
  complete: boolean;
};

/**
 * Reads a JPEG's size, components, precision, frame type, EXIF orientation and whether it is complete,
 * walking its markers up to the frame header; null when it is not a Huffman-coded JPEG this can read
 * (another file type, arithmetic coding, lossless, a broken marker chain). The pipeline lets a JPEG page
 * that is already upright, 8-bit and of its target size through as it is.
 */
export function jpegInfo(jpeg: Uint8Array): JpegInfo | null {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  let orientation = 1;
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) return null;
    const marker = jpeg[at + 1] as number;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = ((jpeg[at + 2] as number) << 8) | (jpeg[at + 3] as number);
    if (length < 2 || at + 2 + length > jpeg.length) return null;
    if (marker === 0xe1) orientation = exifOrientation(jpeg.subarray(at + 4, at + 2 + length)) ?? orientation;
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (length < 8) return null;
      const start = at + 4;
      return {
        precision: jpeg[start] as number,
        height: ((jpeg[start + 1] as number) << 8) | (jpeg[start + 2] as number),
        width: ((jpeg[start + 3] as number) << 8) | (jpeg[start + 4] as number),
        components: jpeg[start + 5] as number,
        progressive: marker === 0xc2,
        orientation,
        complete: endsWithEoi(jpeg),
      };
    }
    // Lossless, hierarchical or arithmetic-coded frames, or a scan before any frame.
    if ((marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === 0xda)
      return null;
    at += 2 + length;
  }
  return null;
}

/** EOI (FF D9) at the end, allowing the zero or 0xFF padding some writers leave after it. */
function endsWithEoi(jpeg: Uint8Array): boolean {
  let end = jpeg.length;
  while (end > 2 && (jpeg[end - 1] === 0x00 || jpeg[end - 1] === 0xff)) end -= 1;
  return end >= 4 && jpeg[end - 2] === 0xff && jpeg[end - 1] === 0xd9;
}

/** The orientation tag (0x0112) of IFD0 in an APP1 segment's payload, if it is EXIF and has one. */
function exifOrientation(app1: Uint8Array): number | null {
  // "Exif\0\0", then a TIFF header: byte order, 42, offset of IFD0.
  if (app1.length < 14 || String.fromCharCode(...app1.subarray(0, 4)) !== 'Exif') return null;
  const tiff = app1.subarray(6);
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return null;
  const u16 = (at: number) =>
    little ? (tiff[at] as number) | ((tiff[at + 1] as number) << 8) : ((tiff[at] as number) << 8) | (tiff[at + 1] as number);
  const u32 = (at: number) => (little ? u16(at) + u16(at + 2) * 0x10000 : u16(at) * 0x10000 + u16(at + 2));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i += 1) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return null;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/**
 * A JPEG file as the page itself, without decoding and encoding it again, when spec §4 step 5 has
 * nothing to do to it: not 1-bit (a JPEG never is), already of its paper size's target (or one row or
 * column larger: then the frame header is cropped, on a copy), upright (no EXIF rotation, which a decoder
 * would apply), 8-bit grey or YCbCr, and complete. Null when the page must be decoded instead.
 */
export function jpegAsPage(jpeg: Uint8Array, paperSize: number): { jpeg: Uint8Array; size: PixelSize } | null {
  const info = jpegInfo(jpeg);
  if (!info || !info.complete || info.precision !== 8 || info.orientation !== 1) return null;
  if (info.components !== 1 && info.components !== 3) return null;
  const size = { width: info.width, height: info.height };
  if (size.width === 0 || size.height === 0) return null;
  const target = outputSize(size, paperSize);
  const how = sizing(size, target);
  if (how === 'none') return { jpeg, size };
  if (how !== 'edge' || target.width > size.width || target.height > size.height || info.progressive) return null;
  const cropped = jpeg.slice();
  return cropJpegFrame(cropped, target) ? { jpeg: cropped, size: target } : null;
}
