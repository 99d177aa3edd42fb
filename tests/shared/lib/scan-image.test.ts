import { describe, expect, it } from 'vitest';
import { PAPER_SIZE_CODES, scanErrorMessage, SCAN_FAILED_MESSAGE } from '../../../src/shared/contract/scan';
import {
  bitonalToGreyRgba,
  isUuidV4,
  outputSize,
  pixelsToRgba,
  resizeTarget,
  scannedPageFileName,
  sizing,
  uuidV4,
} from '../../../src/shared/lib/scan-image';

const scanned = { width: 2551, height: 3579 };

describe('resize targets by paper size (spec §5)', () => {
  it.each([
    ['A4', PAPER_SIZE_CODES.A4, { width: 2480, height: 3507 }],
    ['16k', PAPER_SIZE_CODES['16k'], { width: 2184, height: 3072 }],
    ['B5', PAPER_SIZE_CODES.B5, scanned],
    ['B4', PAPER_SIZE_CODES.B4, scanned],
    ['A3', PAPER_SIZE_CODES.A3, scanned],
    ['another code (US letter, 3)', 3, { width: 2079, height: 2954 }],
    ['another code (-1)', -1, { width: 2079, height: 2954 }],
  ])('resizes a %s page to its target', (_name, code, expected) => {
    expect(outputSize(scanned, code)).toEqual(expected);
  });

  it('leaves B5, B4 and A3 as scanned', () => {
    expect([2, 6, 11].map(resizeTarget)).toEqual([null, null, null]);
  });

  it('uses the codes A4=1, A3=11, B5=2, B4=6, 16k=0', () => {
    expect(PAPER_SIZE_CODES).toEqual({ A4: 1, A3: 11, B5: 2, B4: 6, '16k': 0 });
  });
});

describe('1-bit to greyscale', () => {
  it('turns set bits white and clear bits black, opaque, most significant bit first', () => {
    // 10 pixels wide: rows padded to 2 bytes. Row 0: 1010 1010 | 11xx ; row 1: 0000 0001 | 01xx
    const data = new Uint8Array([0b10101010, 0b11000000, 0b00000001, 0b01000000]);
    const rgba = bitonalToGreyRgba(data, 10, 2);
    const grey = Array.from({ length: 20 }, (_, i) => rgba[i * 4]);
    expect(grey).toEqual([255, 0, 255, 0, 255, 0, 255, 0, 255, 255, 0, 0, 0, 0, 0, 0, 0, 255, 0, 255]);
    for (let i = 0; i < 20; i += 1) {
      expect(rgba[i * 4 + 1]).toBe(rgba[i * 4]);
      expect(rgba[i * 4 + 2]).toBe(rgba[i * 4]);
      expect(rgba[i * 4 + 3]).toBe(255);
    }
  });

  it('refuses rows shorter than the image says', () => {
    expect(() => bitonalToGreyRgba(new Uint8Array(3), 10, 2)).toThrow(/needs 4 bytes/);
  });

  it('expands grey and RGB rows to RGBA', () => {
    expect(
      Array.from(pixelsToRgba({ kind: 'pixels', width: 2, height: 1, bitDepth: 8, data: new Uint8Array([7, 200]) })),
    ).toEqual([7, 7, 7, 255, 200, 200, 200, 255]);
    expect(
      Array.from(pixelsToRgba({ kind: 'pixels', width: 1, height: 1, bitDepth: 24, data: new Uint8Array([1, 2, 3]) })),
    ).toEqual([1, 2, 3, 255]);
    expect(Array.from(pixelsToRgba({ kind: 'pixels', width: 1, height: 1, bitDepth: 1, data: new Uint8Array([0x80]) }))).toEqual([
      255, 255, 255, 255,
    ]);
  });
});

describe('page file names and ids', () => {
  it('names a page by its image id with .jpg', () => {
    expect(scannedPageFileName('3f2b8c1e-9d4a-4b7e-8f00-123456789abc')).toBe('3f2b8c1e-9d4a-4b7e-8f00-123456789abc.jpg');
  });

  it('makes v4 UUIDs from random bytes, distinct for distinct bytes', () => {
    let n = 0;
    const random = (bytes: Uint8Array) => bytes.map(() => (n += 37) & 0xff);
    const a = uuidV4(random);
    const b = uuidV4(random);
    expect(isUuidV4(a)).toBe(true);
    expect(isUuidV4(b)).toBe(true);
    expect(a).not.toBe(b);
    expect(isUuidV4(uuidV4((bytes) => bytes.fill(0xff)))).toBe(true);
  });
});

describe('scanner error messages', () => {
  it.each([
    [-1020, '卡纸了，请取出卡住的纸张后重新扫描'],
    [-1021, '检测到重张进纸，请整理纸张后重新扫描'],
    [-1023, '扫描仪未连接或已关机'],
    [-1032, '扫描已取消'],
  ])('explains code %i in Chinese', (code, message) => {
    expect(scanErrorMessage(code)).toBe(message);
  });

  it('asks to re-select the scanner for any other failure', () => {
    expect(SCAN_FAILED_MESSAGE).toBe('扫描失败，请重新选择扫描仪');
    expect(scanErrorMessage(-4242)).toBe(SCAN_FAILED_MESSAGE);
    expect(scanErrorMessage(null)).toBe(SCAN_FAILED_MESSAGE);
  });
});

describe('how a page reaches its target size', () => {
  it('encodes a page already at its target as is', () => {
    expect(sizing({ width: 2480, height: 3507 }, { width: 2480, height: 3507 })).toBe('none');
  });

  it('crops or pads a page within a pixel of its target (a 300 dpi scanner A4, 2480x3508) instead of resampling it', () => {
    expect(sizing({ width: 2480, height: 3508 }, { width: 2480, height: 3507 })).toBe('edge');
    expect(sizing({ width: 2481, height: 3506 }, { width: 2480, height: 3507 })).toBe('edge');
    expect(sizing({ width: 2479, height: 3507 }, { width: 2480, height: 3507 })).toBe('edge');
  });

  it('rescales when the size really changes (16k, other sizes, two pixels off)', () => {
    expect(sizing({ width: 2480, height: 3508 }, { width: 2184, height: 3072 })).toBe('resample');
    expect(sizing({ width: 2480, height: 3508 }, { width: 2079, height: 2954 })).toBe('resample');
    expect(sizing({ width: 2400, height: 3507 }, { width: 2480, height: 3507 })).toBe('resample');
    expect(sizing({ width: 2480, height: 3509 }, { width: 2480, height: 3507 })).toBe('resample');
  });
});
