/**
 * A JPEG page that spec §4 step 5 has nothing to do to goes to the upload as it is (no decode and encode
 * in the station's worker): checked on real JPEGs made and decoded by sharp (libjpeg-turbo, as browsers).
 */
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { PAPER_SIZE_CODES } from '../../../src/shared/contract/scan';
import { jpegAsPage, jpegInfo } from '../../../src/shared/lib/scan-image';

const A4 = PAPER_SIZE_CODES.A4;

/** A white page with a dark mark near its top left corner, as a JPEG. */
async function page(width: number, height: number, configure: (image: Sharp) => Sharp = (i) => i) {
  const mark = await sharp({ create: { width: 50, height: 30, channels: 3, background: '#202020' } })
    .png()
    .toBuffer();
  const image = sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).composite([
    { input: mark, left: 100, top: 200 },
  ]);
  return new Uint8Array(await configure(image).jpeg({ quality: 85 }).toBuffer());
}

async function decodedSize(jpeg: Uint8Array) {
  const { info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height };
}

describe('a JPEG page passed through without decoding', { timeout: 30_000 }, () => {
  it('keeps an upright A4 JPEG already at 2480x3507 byte for byte', async () => {
    const jpeg = await page(2480, 3507);
    const passed = jpegAsPage(jpeg, A4);
    expect(passed?.size).toEqual({ width: 2480, height: 3507 });
    expect(passed?.jpeg).toEqual(jpeg);
  });

  it("crops a 300 dpi scanner's 2480x3508 to the 2480x3507 target through its header, on a copy", async () => {
    const jpeg = await page(2480, 3508);
    const original = jpeg.slice();
    const passed = jpegAsPage(jpeg, A4);
    expect(passed?.size).toEqual({ width: 2480, height: 3507 });
    expect(await decodedSize(passed!.jpeg)).toEqual({ width: 2480, height: 3507 });
    expect(jpeg).toEqual(original);
  });

  it('keeps a page of a size left as scanned (B5, B4, A3) whatever its pixels, greyscale too', async () => {
    const grey = await page(2079, 2953, (i) => i.toColourspace('b-w'));
    expect(jpegInfo(grey)).toMatchObject({ components: 1, width: 2079, height: 2953, orientation: 1, complete: true });
    expect(jpegAsPage(grey, PAPER_SIZE_CODES.B5)?.size).toEqual({ width: 2079, height: 2953 });
  });

  it('decodes instead when the page needs resampling (16k from an A4 scan) or padding', async () => {
    const jpeg = await page(2480, 3508);
    expect(jpegAsPage(jpeg, PAPER_SIZE_CODES['16k'])).toBeNull();
    expect(jpegAsPage(await page(2479, 3507), A4)).toBeNull();
  });

  it('decodes instead a photo turned by its EXIF orientation (the decoder turns it upright)', async () => {
    const turned = await page(2480, 3507, (i) => i.withMetadata({ orientation: 6 }));
    expect(jpegInfo(turned)?.orientation).toBe(6);
    expect(jpegAsPage(turned, A4)).toBeNull();
    const upright = await page(2480, 3507, (i) => i.withMetadata({ orientation: 1 }));
    expect(jpegInfo(upright)?.orientation).toBe(1);
    expect(jpegAsPage(upright, A4)).not.toBeNull();
  });

  it('decodes instead a file cut short, a CMYK JPEG, and a file that is not a JPEG', async () => {
    // B5 is left as scanned: any size would pass, were the file fit to.
    const B5 = PAPER_SIZE_CODES.B5;
    const jpeg = await page(300, 400);
    expect(jpegAsPage(jpeg, B5)).not.toBeNull();
    const cut = jpeg.subarray(0, jpeg.length - 100);
    expect(jpegInfo(cut)).toMatchObject({ width: 300, complete: false });
    expect(jpegAsPage(cut, B5)).toBeNull();
    // Zero padding after the end marker is not a cut.
    const padded = new Uint8Array(jpeg.length + 16);
    padded.set(jpeg);
    expect(jpegAsPage(padded, B5)).not.toBeNull();
    const cmyk = await page(300, 400, (i) => i.toColourspace('cmyk'));
    expect(jpegInfo(cmyk)?.components).toBe(4);
    expect(jpegAsPage(cmyk, B5)).toBeNull();
    const png = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    expect(jpegInfo(png)).toBeNull();
    expect(jpegAsPage(png, B5)).toBeNull();
  });

  it('keeps a progressive JPEG at its target, but does not crop one (its header crop is not safe)', async () => {
    const exact = await page(2480, 3507, (i) => i.jpeg({ quality: 85, progressive: true }));
    expect(jpegInfo(exact)?.progressive).toBe(true);
    expect(jpegAsPage(exact, A4)?.jpeg).toEqual(exact);
    const larger = await page(2480, 3508, (i) => i.jpeg({ quality: 85, progressive: true }));
    expect(jpegAsPage(larger, A4)).toBeNull();
  });
});
