/**
 * A recognition worker thread: recognises the pages the pool sends it, one message each, and asks the
 * pool for each page's template (the resolver lives on the main thread, next to the database). Owns no
 * state beyond the pages in flight; the pool owns scheduling, restarts and shutdown.
 */
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { AnswerSheetTemplate, SheetQrPayload } from '../../../src/shared/contract/answer-sheet';
import type { PageReading } from '../../../src/shared/contract/recognition';
import { recognizePage, type RecognizeOptions } from './page-recognizer';
import { prepareQrReader } from './qr-reader';

/** Pool to worker. */
export type WorkerRequest =
  | { type: 'recognize'; id: number; image: Uint8Array }
  | { type: 'template'; id: number; template: AnswerSheetTemplate | null }
  | { type: 'templateFailed'; id: number; message: string };

/** Worker to pool. */
export type WorkerReply =
  | { type: 'template'; id: number; qr: SheetQrPayload | null }
  | {
      type: 'done';
      id: number;
      reading: PageReading;
      regions: { questionNo: number; kind: 'blank' | 'subjective'; jpeg: Uint8Array }[];
    }
  | { type: 'failed'; id: number; message: string };

/** What the pool starts the worker with. */
export type WorkerOptions = RecognizeOptions;

/**
 * The worker thread's nice value: recognition is background work, and on Linux a thread has its own, so
 * the main thread (every HTTP request, the embedded database, socket.io) is served first when the cores
 * are busy; on idle cores the workers run at full speed. Where it cannot be set it is left as it is.
 */
const WORKER_NICE = 10;
try {
  // Never raised: a server started niced keeps its workers at least as nice.
  setPriority(0, Math.max(getPriority(0), WORKER_NICE));
} catch {
  // Not permitted on this system: recognition competes with requests as before.
}

const options = (workerData ?? {}) as WorkerOptions;
const port = parentPort;
if (!port) throw new Error('recognition.worker must run in a worker thread');

const waiting = new Map<number, { resolve: (t: AnswerSheetTemplate | null) => void; reject: (e: Error) => void }>();
const send = (reply: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

async function recognize(id: number, image: Uint8Array) {
  try {
    const buffer = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
    const { reading, regions } = await recognizePage(
      buffer,
      (qr) => {
        const answer = new Promise<AnswerSheetTemplate | null>((resolve, reject) => waiting.set(id, { resolve, reject }));
        send({ type: 'template', id, qr });
        return answer;
      },
      options,
    );
    // Region JPEGs travel without a copy: each gets its own ArrayBuffer to hand over.
    const owned = regions.map((r) => ({ questionNo: r.questionNo, kind: r.kind, jpeg: new Uint8Array(r.jpeg) }));
    send(
      { type: 'done', id, reading, regions: owned },
      owned.map((r) => r.jpeg.buffer as ArrayBuffer),
    );
  } catch (error) {
    send({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) });
  } finally {
    waiting.delete(id);
  }
}

port.on('message', (request: WorkerRequest) => {
  if (request.type === 'recognize') {
    void recognize(request.id, request.image);
    return;
  }
  const pending = waiting.get(request.id);
  if (!pending) return;
  waiting.delete(request.id);
  if (request.type === 'template') pending.resolve(request.template);
  else pending.reject(new Error(request.message));
});

// Instantiate the QR reader before the first page arrives (a failure shows on that page instead).
prepareQrReader().catch(() => undefined);
