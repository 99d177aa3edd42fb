/**
 * The pipeline's copy-free steps: cropping a JPEG's last row/column through its frame header (checked by
 * decoding real JPEGs with sharp, which uses libjpeg-turbo like the browsers), and 1-bit expansion a byte
 * at a time against a bit-by-bit reference.
 */
import sharp, { type JpegOptions } from 'sharp';
import { describe, expect, it } from 'vitest';
import { bitonalStride, bitonalToGreyRgba, cropJpegFrame } from '../../../src/shared/lib/scan-image';

/** A noisy RGB test picture, so that every pixel position matters. */
function picture(width: number, height: number): Buffer {
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < rgb.length; i += 1) rgb[i] = (i * 37 + ((i / 3) | 0) * 11) & 0xff;
  return rgb;
}

async function jpeg(width: number, height: number, options: JpegOptions = {}): Promise<Uint8Array> {
  const bytes = await sharp(picture(width, height), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85, chromaSubsampling: '4:2:0', ...options })
    .toBuffer();
  return new Uint8Array(bytes);
}

async function decoded(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

describe('cropping a JPEG through its frame header', () => {
  it('declares a 300 dpi A4 scan (2480x3508) as the 2480x3507 target, keeping every other pixel', async () => {
    const original = await jpeg(2480, 3508);
    const cropped = original.slice();
    expect(cropJpegFrame(cropped, { width: 2480, height: 3507 })).toBe(true);
    const before = await decoded(original);
    const after = await decoded(cropped);
    expect([after.width, after.height]).toEqual([2480, 3507]);
    expect(after.data.equals(before.data.subarray(0, 2480 * 3507 * 3))).toBe(true);
  });

  it('crops the right column and bottom row of a small page to the same pixels a decoder shows', async () => {
    const original = await jpeg(40, 36);
    const cropped = original.slice();
    expect(cropJpegFrame(cropped, { width: 39, height: 35 })).toBe(true);
    const before = await decoded(original);
    const after = await decoded(cropped);
    expect([after.width, after.height]).toEqual([39, 35]);
    let worst = 0;
    for (let y = 0; y < 35; y += 1) {
      for (let x = 0; x < 39 * 3; x += 1) {
        worst = Math.max(worst, Math.abs(after.data[y * 39 * 3 + x]! - before.data[y * 40 * 3 + x]!));
      }
    }
    expect(worst).toBeLessThanOrEqual(2);
    // Only the four size bytes changed.
    expect(cropped.filter((byte, i) => byte !== original[i]).length).toBeLessThanOrEqual(4);
  });

  it('crops a greyscale (single-component) JPEG too', async () => {
    const original = new Uint8Array(
      await sharp(picture(24, 18), { raw: { width: 24, height: 18, channels: 3 } })
        .toColourspace('b-w')
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
    expect((await sharp(original).metadata()).channels).toBe(1);
    const cropped = original.slice();
    expect(cropJpegFrame(cropped, { width: 23, height: 17 })).toBe(true);
    expect(await decoded(cropped)).toMatchObject({ width: 23, height: 17 });
    // Its blocks are 8x8: 18 rows to 16 would drop a block row.
    expect(cropJpegFrame(original.slice(), { width: 24, height: 16 })).toBe(false);
  });

  it('leaves the JPEG untouched when the MCU grid would change, the size grows, or the frame is progressive', async () => {
    const original = await jpeg(40, 33);
    for (const size of [
      { width: 40, height: 32 }, // 33 rows are 3 MCU rows of 16, 32 are 2
      { width: 41, height: 33 },
      { width: 40, height: 34 },
      { width: 0, height: 33 },
    ]) {
      const bytes = original.slice();
      expect(cropJpegFrame(bytes, size)).toBe(false);
      expect(bytes).toEqual(original);
    }
    const progressive = await jpeg(40, 36, { progressive: true });
    expect(cropJpegFrame(progressive.slice(), { width: 39, height: 35 })).toBe(false);
    expect(cropJpegFrame(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { width: 1, height: 1 })).toBe(false);
  });
});

describe('1-bit expansion a byte at a time', () => {
  it('matches a bit-by-bit reference for every byte value and a width that is not a multiple of 8', () => {
    const width = 2067; // 258 whole bytes and 3 pixels
    const height = 3;
    const stride = bitonalStride(width);
    const data = new Uint8Array(stride * height).map((_, i) => (i * 151 + 7) & 0xff);
    const rgba = bitonalToGreyRgba(data, width, height);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const bit = (data[y * stride + (x >> 3)]! >> (7 - (x & 7))) & 1;
        const o = (y * width + x) * 4;
        expect([rgba[o], rgba[o + 1], rgba[o + 2], rgba[o + 3]]).toEqual(bit ? [255, 255, 255, 255] : [0, 0, 0, 255]);
      }
    }
  });
});
