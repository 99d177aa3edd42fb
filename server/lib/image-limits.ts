/**
 * Image dimensions read from the file's header (sharp's metadata decodes no pixels), so an upload that
 * would take gigabytes to decode is refused before anything is decoded.
 */
import sharp from 'sharp';

/** A3 (297 x 420 mm) at 600 dpi, the most a scan page may be, with room for scanner rounding. */
export const SCAN_PAGE_MAX_PIXELS = { shortSide: 7100, longSide: 10_000 } as const;

export const IMAGE_LIMIT_MESSAGES = {
  scanTooLarge: '扫描图片尺寸过大：最大支持 A3 幅面 600 dpi（约 7016 × 9921 像素），请降低扫描分辨率后重新扫描',
  unreadable: '扫描图片已损坏或无法识别，请重新扫描此页',
  oneFile: '每次只能上传一个文件，请逐页上传扫描图片',
} as const;

/** Width and height from the header, or null when the bytes are not an image sharp can read. */
export async function imageSize(data: Buffer): Promise<{ width: number; height: number } | null> {
  try {
    const { width, height } = await sharp(data, { limitInputPixels: false }).metadata();
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

/** Why a scan page cannot be accepted, or null when its size is fine. */
export async function scanPageSizeProblem(data: Buffer): Promise<string | null> {
  const size = await imageSize(data);
  if (!size) return IMAGE_LIMIT_MESSAGES.unreadable;
  const shortSide = Math.min(size.width, size.height);
  const longSide = Math.max(size.width, size.height);
  if (shortSide > SCAN_PAGE_MAX_PIXELS.shortSide || longSide > SCAN_PAGE_MAX_PIXELS.longSide) {
    return IMAGE_LIMIT_MESSAGES.scanTooLarge;
  }
  return null;
}

/**
 * A JPEG's dimensions from its frame header, read synchronously by walking the markers (no decoding),
 * or null when the bytes are not a JPEG with a frame header.
 */
export function jpegDimensions(data: Uint8Array): { width: number; height: number } | null {
  if (data[0] !== 0xff || data[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = (data[at + 2]! << 8) | data[at + 3]!;
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (data[at + 5]! << 8) | data[at + 6]!, width: (data[at + 7]! << 8) | data[at + 8]! };
    }
    if (marker === 0xda || marker === 0xd9) return null;
    at += 2 + length;
  }
  return null;
}
