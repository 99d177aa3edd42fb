/**
 * Barcode formats the print page offers, the spec's drawing defaults, and the check of a code against a
 * format: our own length rules first (a check digit must be given, not computed), then jsbarcode's
 * `valid` callback, which knows each symbology's alphabet and check digits. Answers in Chinese.
 */
import JsBarcode from 'jsbarcode';

export const BARCODE_FORMATS = ['CODE128', 'EAN13', 'EAN8', 'UPC', 'CODE39', 'ITF14', 'MSI', 'pharmacode'] as const;
export type BarcodeFormat = (typeof BARCODE_FORMATS)[number];

/** Spec §9: barcode defaults. */
export const BARCODE_DEFAULTS = { width: 2, height: 100, margin: 10, fontSize: 20 } as const;
export type BarcodeOptions = { width: number; height: number; margin: number; fontSize: number };

export const PHARMACODE_MIN = 3;
export const PHARMACODE_MAX = 131070;

/** What each format accepts, as the error message shows it. */
export const BARCODE_RULES: Record<BarcodeFormat, string> = {
  CODE128: 'CODE128 只能包含 ASCII 字符（字母、数字和常用符号）',
  EAN13: 'EAN13 需要 13 位数字，且最后一位校验位正确',
  EAN8: 'EAN8 需要 8 位数字，且最后一位校验位正确',
  UPC: 'UPC 需要 12 位数字，且最后一位校验位正确',
  CODE39: 'CODE39 只能包含大写字母、数字、空格和 - . $ / + % 符号',
  ITF14: 'ITF14 需要 14 位数字，且最后一位校验位正确',
  MSI: 'MSI 只能包含数字',
  pharmacode: `pharmacode 需要 ${PHARMACODE_MIN} 到 ${PHARMACODE_MAX} 之间的整数`,
};

export const EMPTY_BARCODE_MESSAGE = '请输入条码内容';

/** Digits-only formats whose full length (check digit included) we require. */
const FULL_LENGTH: Partial<Record<BarcodeFormat, number>> = { EAN13: 13, EAN8: 8, UPC: 12, ITF14: 14 };

/** Whether jsbarcode can encode the value in the format. */
export function jsBarcodeAccepts(format: BarcodeFormat, value: string): boolean {
  let valid = false;
  JsBarcode({}, value, {
    format,
    valid: (ok: boolean) => {
      valid = ok;
    },
  });
  return valid;
}

/** The Chinese message for a value the format cannot carry, or null when it can. */
export function barcodeInputError(format: BarcodeFormat, value: string): string | null {
  if (value.trim() === '') return EMPTY_BARCODE_MESSAGE;
  const length = FULL_LENGTH[format];
  if (length !== undefined && !new RegExp(`^\\d{${length}}$`).test(value)) return BARCODE_RULES[format];
  if (format === 'pharmacode') {
    const n = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
    if (!(n >= PHARMACODE_MIN && n <= PHARMACODE_MAX)) return BARCODE_RULES.pharmacode;
  }
  return jsBarcodeAccepts(format, value) ? null : BARCODE_RULES[format];
}
