/**
 * Renders synthetic sheets (synthetic-sheets.ts) on worker threads, for benchmarks that need hundreds:
 * one page per thread at a time, in request order per thread. Each thread keeps its own rasterised base
 * pages, so a few distinct sheets (students) per run keep it fast.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../server/services/recognition/module-worker';
import type { AnswerSheetSpec } from '../../src/shared/contract/answer-sheet';
import type { SyntheticSheet, SyntheticSheetOptions } from './synthetic-sheets';
import type { SheetReply, SheetRequest } from './synthetic-sheets.worker';

export type SheetPool = {
  render(spec: AnswerSheetSpec, options: SyntheticSheetOptions): Promise<SyntheticSheet>;
  close(): Promise<void>;
};

export function createSheetPool(threads: number): SheetPool {
  type Job = { request: SheetRequest; resolve: (s: SyntheticSheet) => void; reject: (e: Error) => void };
  const queue: Job[] = [];
  const slots: { worker: Worker; job: Job | null }[] = [];
  let nextId = 1;
  const dispatch = () => {
    for (const slot of slots) {
      if (slot.job || queue.length === 0) continue;
      slot.job = queue.shift()!;
      slot.worker.postMessage(slot.job.request);
    }
  };
  for (let i = 0; i < threads; i += 1) {
    const slot = { worker: startModuleWorker(new URL('./synthetic-sheets.worker.ts', import.meta.url)), job: null as Job | null };
    slot.worker.on('message', (reply: SheetReply) => {
      const job = slot.job;
      slot.job = null;
      if (job && reply.ok) {
        const { jpeg, expected, ...rest } = reply.sheet;
        job.resolve({ ...rest, jpeg: Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength), expected: new Map(expected) });
      } else if (job && !reply.ok) job.reject(new Error(reply.message));
      dispatch();
    });
    slot.worker.on('error', (error) => {
      slot.job?.reject(error);
      slot.job = null;
    });
    slots.push(slot);
  }
  return {
    render(spec, options) {
      return new Promise((resolve, reject) => {
        queue.push({ request: { id: nextId++, spec, options }, resolve, reject });
        dispatch();
      });
    },
    async close() {
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
