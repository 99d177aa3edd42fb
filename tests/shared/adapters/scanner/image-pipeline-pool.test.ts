/**
 * The image pipeline's pool of workers, with fake workers that answer when the test says: pages started
 * on transfer spread over the workers, results come back in transfer order and are named in that order
 * whatever order the workers finish in, failures and crashes cost only their own page, and the scanner
 * machine (through scannerActors) emits a scan's pages in order while several are converted at once.
 */
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { scannerMachine } from '../../../../src/machines/scanner.machine';
import {
  createImagePipeline,
  defaultPoolSize,
  type PipelineRequest,
  type PipelineResponse,
  type PipelineWorker,
} from '../../../../src/shared/adapters/scanner/image-pipeline';
import { scannerActors, type ScannerDriver } from '../../../../src/shared/adapters/scanner/scanner-driver';
import { DEFAULT_SCANNER_SETTINGS, type RawImage, type ScannedPage } from '../../../../src/shared/contract/scan';

class FakeWorker {
  readonly posted: PipelineRequest[] = [];
  terminated = false;
  private readonly listeners: Record<string, ((event: never) => void)[]> = { message: [], error: [] };

  postMessage(request: PipelineRequest) {
    this.posted.push(request);
  }
  addEventListener(type: string, listener: (event: never) => void) {
    this.listeners[type]?.push(listener);
  }
  terminate() {
    this.terminated = true;
  }
  /** Answers the request it holds: a JPEG whose text is the page's marker byte, or a failure. */
  answer(ok = true) {
    const request = this.posted.at(-1)!;
    const marker = request.raw.kind === 'pixels' ? request.raw.data[0] : -1;
    const data: PipelineResponse = ok
      ? { id: request.id, ok: true, blob: new Blob([`page ${marker}`]), width: 2480, height: 3507 }
      : { id: request.id, ok: false, message: `page ${marker} could not be decoded` };
    for (const listener of this.listeners.message!) listener({ data } as never);
  }
  crash() {
    for (const listener of this.listeners.error!) listener({ message: 'out of memory' } as never);
  }
}

function fakePool() {
  const workers: FakeWorker[] = [];
  return {
    workers,
    createWorker: (): PipelineWorker => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker as unknown as PipelineWorker;
    },
    /** Markers of the pages each worker has been given. */
    given: () => workers.map((w) => w.posted.map((r) => (r.raw.kind === 'pixels' ? r.raw.data[0] : -1))),
  };
}

function raw(marker: number): RawImage {
  return { kind: 'pixels', width: 8, height: 1, bitDepth: 1, data: new Uint8Array([marker]) };
}

const ids = () => {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String((n += 1)).padStart(12, '0')}`;
};

const flush = async () => {
  for (let tick = 0; tick < 20; tick += 1) await Promise.resolve();
};

const text = (page: ScannedPage) => page.blob.text();

describe('image pipeline pool', () => {
  it('sizes the pool from the cores: one worker per core, at most 4, 2 when unknown', () => {
    expect([1, 2, 3, 8, 64].map(defaultPoolSize)).toEqual([1, 2, 3, 4, 4]);
    expect(defaultPoolSize(undefined)).toBe(2);
    expect(defaultPoolSize(0)).toBe(2);
  });

  it('spreads started pages over its workers, one page per worker at a time, and settles in transfer order', async () => {
    const pool = fakePool();
    const pipeline = createImagePipeline({ createWorker: pool.createWorker, workers: 3, newImageId: ids() });
    const images = [1, 2, 3, 4, 5].map(raw);
    for (const image of images) pipeline.start(image, 1);
    expect(pool.given()).toEqual([[1], [2], [3]]);

    const settled: number[] = [];
    const pages = images.map((image, i) =>
      pipeline.transform(image, { paperSize: 1, scanSubject: true, sequence: i + 1 }).then((page) => {
        settled.push(page.sequence);
        return page;
      }),
    );
    // The third worker finishes first and takes page 4; then the second (page 5); the first comes last.
    pool.workers[2]!.answer();
    await flush();
    expect(pool.given()).toEqual([[1], [2], [3, 4]]);
    pool.workers[1]!.answer();
    pool.workers[2]!.answer();
    await flush();
    expect(pool.given()).toEqual([[1], [2, 5], [3, 4]]);
    pool.workers[1]!.answer();
    await flush();
    // Pages 2–5 are done, but page 1 is not: nothing has settled yet.
    expect(settled).toEqual([]);
    pool.workers[0]!.answer();
    const done = await Promise.all(pages);
    expect(settled).toEqual([1, 2, 3, 4, 5]);
    expect(await Promise.all(done.map(text))).toEqual(['page 1', 'page 2', 'page 3', 'page 4', 'page 5']);
    // Named in transfer order, not in the order the workers finished.
    expect(done.map((p) => p.fileName)).toEqual([1, 2, 3, 4, 5].map((n) => `00000000-0000-4000-8000-00000000000${n}.jpg`));
    expect(done.every((p) => p.scanSubject && p.width === 2480 && p.height === 3507)).toBe(true);
    // A started page is converted once: transform took the started result.
    expect(pool.workers.flatMap((w) => w.posted)).toHaveLength(5);
  });

  it('converts an image nobody started when it is transformed, creating workers only as needed', async () => {
    const pool = fakePool();
    const pipeline = createImagePipeline({ createWorker: pool.createWorker, workers: 4 });
    const page = pipeline.transform(raw(7), { paperSize: 0, scanSubject: false, sequence: 1 });
    expect(pool.workers).toHaveLength(1);
    expect(pool.workers[0]!.posted[0]).toMatchObject({ paperSize: 0, quality: 0.85 });
    pool.workers[0]!.answer();
    expect(await text(await page)).toBe('page 7');
    // One page at a time needs one worker.
    const next = pipeline.transform(raw(8), { paperSize: 0, scanSubject: false, sequence: 2 });
    expect(pool.workers).toHaveLength(1);
    pool.workers[0]!.answer();
    expect(await text(await next)).toBe('page 8');
  });

  it('fails only the page that failed; the pages after it still settle, in order', async () => {
    const pool = fakePool();
    const pipeline = createImagePipeline({ createWorker: pool.createWorker, workers: 2 });
    const images = [1, 2, 3].map(raw);
    for (const image of images) pipeline.start(image, 1);
    const results = images.map((image, i) =>
      pipeline.transform(image, { paperSize: 1, scanSubject: false, sequence: i + 1 }).then(
        (page) => text(page),
        (error: Error) => error.message,
      ),
    );
    pool.workers[0]!.answer(false);
    await flush();
    pool.workers[1]!.answer();
    pool.workers[0]!.answer();
    expect(await Promise.all(results)).toEqual(['page 1 could not be decoded', 'page 2', 'page 3']);
  });

  it('replaces a crashed worker: its page fails, the next page goes to a fresh worker', async () => {
    const pool = fakePool();
    const pipeline = createImagePipeline({ createWorker: pool.createWorker, workers: 1 });
    const first = pipeline.transform(raw(1), { paperSize: 1, scanSubject: false, sequence: 1 });
    const second = pipeline.transform(raw(2), { paperSize: 1, scanSubject: false, sequence: 2 });
    pool.workers[0]!.crash();
    await expect(first).rejects.toThrow('out of memory');
    expect(pool.workers[0]!.terminated).toBe(true);
    expect(pool.given()).toEqual([[1], [2]]);
    pool.workers[1]!.answer();
    expect(await text(await second)).toBe('page 2');
  });

  it('refuses a started image claimed for another paper size (its pixels are gone)', async () => {
    const pool = fakePool();
    const pipeline = createImagePipeline({ createWorker: pool.createWorker, workers: 1 });
    const image = raw(1);
    pipeline.start(image, 1);
    const page = pipeline.transform(image, { paperSize: 0, scanSubject: false, sequence: 1 });
    pool.workers[0]!.answer();
    await expect(page).rejects.toThrow('another paper size');
  });

  it('drops started images nobody claimed when discarded: waiting ones never reach a worker', async () => {
    const pool = fakePool();
    const pipeline = createImagePipeline({ createWorker: pool.createWorker, workers: 1 });
    const images = [1, 2, 3].map(raw);
    for (const image of images) pipeline.start(image, 1);
    pipeline.discardStarted();
    pool.workers[0]!.answer();
    await flush();
    expect(pool.given()).toEqual([[1]]);
    // A discarded image transformed after all is converted afresh.
    const page = pipeline.transform(images[1]!, { paperSize: 1, scanSubject: false, sequence: 1 });
    expect(pool.given()).toEqual([[1, 2]]);
    pool.workers[0]!.answer();
    expect(await text(await page)).toBe('page 2');
  });

  it('rejects waiting and running pages when disposed, and stops every worker', async () => {
    const pool = fakePool();
    const pipeline = createImagePipeline({ createWorker: pool.createWorker, workers: 2 });
    const pages = [1, 2, 3].map((n) => pipeline.transform(raw(n), { paperSize: 1, scanSubject: false, sequence: n }));
    pipeline.dispose();
    for (const page of pages) await expect(page).rejects.toThrow('disposed');
    expect(pool.workers.map((w) => w.terminated)).toEqual([true, true]);
  });
});

describe('scanner machine over the pool', () => {
  it('starts each page as it is transferred and emits the scan in transfer order while workers finish out of order', async () => {
    const pool = fakePool();
    const pipeline = createImagePipeline({ createWorker: pool.createWorker, workers: 3, newImageId: ids() });
    let feed: ((image: RawImage) => void) | null = null;
    let finish: (() => void) | null = null;
    let stopped = 0;
    const driver: ScannerDriver = {
      load: async () => ['Fujitsu fi-7160'],
      select: async () => undefined,
      configure: async () => undefined,
      acquire(onImage, onDone) {
        feed = onImage;
        finish = onDone;
        return () => {
          stopped += 1;
        };
      },
      close: async () => undefined,
    };
    const emitted: ScannedPage[] = [];
    const machine = scannerMachine.provide({
      actors: scannerActors(driver, pipeline),
      actions: { emitPage: (_, page: ScannedPage) => void emitted.push(page) },
    });
    const settings = { ...DEFAULT_SCANNER_SETTINGS, scannerIndex: 0, scannerName: 'Fujitsu fi-7160', paperSize: 0 as const };
    const actor = createActor(machine, { input: { settings } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'scan.requested' });
    await waitFor(actor, (s) => s.matches('scanning'));

    for (const marker of [1, 2, 3, 4]) feed!(raw(marker));
    // Three pages are in workers at once (with the chosen paper size), though the machine asked for one.
    expect(pool.given()).toEqual([[1], [2], [3]]);
    expect(pool.workers.flatMap((w) => w.posted.map((r) => r.paperSize))).toEqual([0, 0, 0]);
    pool.workers[2]!.answer();
    pool.workers[1]!.answer();
    await flush();
    expect(emitted).toEqual([]);
    pool.workers[0]!.answer();
    await flush();
    expect(emitted.map((p) => p.sequence)).toEqual([1, 2, 3]);
    finish!();
    await flush();
    pool.workers[2]!.answer();
    await waitFor(actor, (s) => s.matches('ready'));

    expect(emitted.map((p) => p.sequence)).toEqual([1, 2, 3, 4]);
    expect(await Promise.all(emitted.map(text))).toEqual(['page 1', 'page 2', 'page 3', 'page 4']);
    expect(emitted.map((p) => p.imageId.slice(-1))).toEqual(['1', '2', '3', '4']);
    expect(actor.getSnapshot().context.counts).toEqual({ transferred: 4, emitted: 4, failedConversions: 0 });
    expect(stopped).toBe(1);
    actor.stop();
  });

  it('a cancelled scan does not convert the pages still waiting for a worker', async () => {
    const pool = fakePool();
    const pipeline = createImagePipeline({ createWorker: pool.createWorker, workers: 1 });
    let feed: ((image: RawImage) => void) | null = null;
    const driver: ScannerDriver = {
      load: async () => ['Fujitsu fi-7160'],
      select: async () => undefined,
      configure: async () => undefined,
      acquire(onImage) {
        feed = onImage;
        return () => undefined;
      },
      close: async () => undefined,
    };
    const machine = scannerMachine.provide({ actors: scannerActors(driver, pipeline), actions: { emitPage: () => undefined } });
    const settings = { ...DEFAULT_SCANNER_SETTINGS, scannerIndex: 0, scannerName: 'Fujitsu fi-7160' };
    const actor = createActor(machine, { input: { settings } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'scan.requested' });
    await waitFor(actor, (s) => s.matches('scanning'));
    for (const marker of [1, 2, 3]) feed!(raw(marker));
    actor.send({ type: 'scan.cancelled' });
    await waitFor(actor, (s) => s.matches('acquisitionError'));
    pool.workers[0]!.answer();
    await flush();
    expect(pool.given()).toEqual([[1]]);
    actor.stop();
  });
});
