/**
 * The text in an answer sheet's QR: `SH1:h<homeworkId>:p<page>:s<studentCode or ->`. Short, so the
 * symbol stays small and robust; the leading `SH1` names the format version. The student code is
 * percent-encoded, so any code survives the round trip.
 */
import QRCode from 'qrcode';
import { sheetQrPayloadSchema, type SheetQrPayload } from '../contract/answer-sheet';

export const SHEET_QR_PREFIX = 'SH1';

const NO_STUDENT = '-';
const SHEET_QR = /^SH1:h(\d{1,15}):p(\d{1,4}):s([A-Za-z0-9%_.!~*'()-]+)$/;

/** The QR text of a sheet page. Throws on a payload the format cannot carry (see {@link sheetQrPayloadSchema}). */
export function encodeSheetQr(payload: SheetQrPayload): string {
  const { homeworkId, page, studentCode } = sheetQrPayloadSchema.parse(payload);
  const code = studentCode === undefined ? NO_STUDENT : encodeStudentCode(studentCode);
  return `${SHEET_QR_PREFIX}:h${homeworkId}:p${page}:s${code}`;
}

/** The payload of a sheet QR, or null when the text is not one (another QR, a misread, garbage). */
export function decodeSheetQr(text: string): SheetQrPayload | null {
  const match = SHEET_QR.exec(text.trim());
  if (!match) return null;
  const [, homeworkId = '', page = '', code = ''] = match;
  let studentCode: string | undefined;
  if (code !== NO_STUDENT) {
    try {
      studentCode = decodeURIComponent(code);
    } catch {
      return null;
    }
  }
  const parsed = sheetQrPayloadSchema.safeParse({
    homeworkId: Number(homeworkId),
    page: Number(page),
    ...(studentCode === undefined ? {} : { studentCode }),
  });
  return parsed.success && Number.isSafeInteger(parsed.data.homeworkId) ? parsed.data : null;
}

function encodeStudentCode(code: string): string {
  // A bare "-" would read back as "no student".
  return code === NO_STUDENT ? '%2D' : encodeURIComponent(code);
}

/** The dark modules of a text's QR symbol as runs along each row, and its side in modules (no quiet zone). */
export function sheetQrRuns(text: string): { runs: { row: number; start: number; length: number }[]; modules: number } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const runs: { row: number; start: number; length: number }[] = [];
  for (let row = 0; row < n; row += 1) {
    let col = 0;
    while (col < n) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col += 1;
      runs.push({ row, start, length: col - start });
    }
  }
  return { runs, modules: n };
}

/**
 * The QR symbol of a text as one SVG path in module units (one subpath per run of dark modules, so a
 * single fill draws it without seams), and its side in modules. The quiet zone is not included.
 */
export function sheetQrPath(text: string): { path: string; modules: number } {
  const { runs, modules } = sheetQrRuns(text);
  return { path: runs.map(({ row, start, length }) => `M${start} ${row}h${length}v1h${-length}z`).join(''), modules };
}
