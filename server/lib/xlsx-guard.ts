/**
 * Inspects an uploaded .xlsx (a zip) before any spreadsheet parser sees it, so a small file that
 * inflates to hundreds of megabytes (a zip bomb) or holds millions of rows is refused in milliseconds.
 * The entries are inflated by fflate into buffers no larger than their declared sizes (a lying size
 * truncates the entry, it never grows the buffer), the declared sizes are summed against a budget, and
 * rows and cells are counted in the worksheets. What passes is zipped again from exactly the bytes that
 * were measured, so the parser reads nothing the checks did not see.
 */
import { unzipSync, zipSync, type Unzipped } from 'fflate';

export type XlsxLimits = {
  /** Total uncompressed bytes of all entries. */
  maxUncompressedBytes: number;
  maxEntries: number;
  /** `<row>` elements over all worksheets (blank formatted rows count too). */
  maxRows: number;
  /** `<c>` elements over all worksheets. */
  maxCells: number;
};

export type XlsxProblem = 'notZip' | 'tooLarge' | 'tooManyRows';

export class XlsxRefused extends Error {
  constructor(readonly problem: XlsxProblem) {
    super(problem);
  }
}

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/i;

/** Counts `<tag ` / `<tag>` / `<tag/>` openings in XML bytes without decoding them to a string. */
function countElements(data: Uint8Array, tag: string): number {
  const codes = [...`<${tag}`].map((char) => char.charCodeAt(0));
  let count = 0;
  outer: for (let i = data.indexOf(codes[0]!); i !== -1 && i < data.length; i = data.indexOf(codes[0]!, i + 1)) {
    for (let j = 1; j < codes.length; j += 1) if (data[i + j] !== codes[j]) continue outer;
    const next = data[i + codes.length];
    // space, tab, CR, LF, '>' or '/'
    if (next === 0x20 || next === 0x09 || next === 0x0d || next === 0x0a || next === 0x3e || next === 0x2f) count += 1;
  }
  return count;
}

/** The workbook re-zipped from the measured entries, or XlsxRefused. */
export function guardXlsx(file: Uint8Array, limits: XlsxLimits): Uint8Array {
  let entries = 0;
  let declared = 0;
  let files: Unzipped;
  try {
    files = unzipSync(file, {
      filter: (entry) => {
        entries += 1;
        declared += entry.originalSize;
        if (entries > limits.maxEntries || declared > limits.maxUncompressedBytes) throw new XlsxRefused('tooLarge');
        return true;
      },
    });
  } catch (error) {
    if (error instanceof XlsxRefused) throw error;
    throw new XlsxRefused('notZip');
  }
  let rows = 0;
  let cells = 0;
  for (const [name, data] of Object.entries(files)) {
    if (!WORKSHEET.test(name)) continue;
    rows += countElements(data, 'row');
    cells += countElements(data, 'c');
    if (rows > limits.maxRows || cells > limits.maxCells) throw new XlsxRefused('tooManyRows');
  }
  return zipSync(files, { level: 1 });
}
