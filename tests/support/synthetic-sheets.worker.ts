/** A worker thread rendering synthetic sheets (synthetic-sheets.ts) for synthetic-sheet-pool.ts. */
import { parentPort } from 'node:worker_threads';
import type { AnswerSheetSpec } from '../../src/shared/contract/answer-sheet';
import { renderSyntheticSheet, sheetFixture, type SheetFixture, type SyntheticSheetOptions } from './synthetic-sheets';

export type SheetRequest = { id: number; spec: AnswerSheetSpec; options: SyntheticSheetOptions };
export type SheetReply =
  | {
      id: number;
      ok: true;
      sheet: Omit<Awaited<ReturnType<typeof renderSyntheticSheet>>, 'expected' | 'jpeg'> & {
        jpeg: Uint8Array;
        expected: [number, string[]][];
      };
    }
  | { id: number; ok: false; message: string };

const fixtures = new Map<string, SheetFixture>();
const port = parentPort!;

port.on('message', async ({ id, spec, options }: SheetRequest) => {
  try {
    const key = JSON.stringify(spec);
    let fixture = fixtures.get(key);
    if (!fixture) {
      fixture = sheetFixture(spec);
      fixtures.set(key, fixture);
    }
    const { jpeg, expected, ...rest } = await renderSyntheticSheet(fixture, options);
    const bytes = new Uint8Array(jpeg);
    const reply: SheetReply = { id, ok: true, sheet: { ...rest, jpeg: bytes, expected: [...expected] } };
    port.postMessage(reply, [bytes.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies SheetReply);
  }
});
