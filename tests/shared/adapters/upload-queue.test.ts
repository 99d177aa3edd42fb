import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, type HttpClient } from '../../../src/shared/adapters/http-client';
import {
  createMemoryStore,
  createUploadQueue,
  OFFLINE_MESSAGE,
  type Connectivity,
  type UploadItem,
  type UploadStore,
} from '../../../src/shared/adapters/upload-queue';
import type { UploadStats } from '../../../src/shared/lib/upload-schedule';

type Call = {
  form: FormData;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  progress?: (r: number) => void;
};

/** An HTTP client whose uploads stay pending until the test answers them. */
function fakeHttp() {
  const calls: Call[] = [];
  const http = {
    upload: vi.fn((_url: string, form: FormData, options?: { onProgress?: (r: number) => void }) => {
      return new Promise((resolve, reject) => calls.push({ form, resolve, reject, progress: options?.onProgress }));
    }),
  } as unknown as HttpClient;
  return { http, calls };
}

function fakeConnectivity(online = true) {
  const listeners = new Set<() => void>();
  const connectivity: Connectivity = {
    isOnline: () => online,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    connectivity,
    set(value: boolean) {
      online = value;
      for (const listener of listeners) listener();
    },
  };
}

const page = (n: number): UploadItem => ({
  imageId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  blob: new Blob([new Uint8Array(100 + n)], { type: 'image/jpeg' }),
  fileName: `page-${n}.jpg`,
  batchId: 7,
  sequence: n,
  scanSubject: true,
  width: 2480,
  height: 3507,
});

const flush = () => vi.advanceTimersByTimeAsync(0);
const stored = (imageId: string) => ({ imageId, duplicate: false, batchPageCount: 1 });

function setup(options: { store?: UploadStore; online?: boolean } = {}) {
  const { http, calls } = fakeHttp();
  const net = fakeConnectivity(options.online ?? true);
  const store = options.store ?? createMemoryStore();
  const queue = createUploadQueue({ http, store, connectivity: net.connectivity, now: () => Date.now(), random: () => 1 });
  let stats: UploadStats | null = null;
  queue.subscribe((s) => (stats = s));
  return { queue, calls, net, store, stats: () => stats!, http };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('upload queue', () => {
  it('uploads two pages at a time, the fields before the file, and counts them done', async () => {
    vi.useFakeTimers();
    const { queue, calls, stats } = setup();
    queue.start();
    for (const n of [1, 2, 3]) await queue.enqueue(page(n));
    await flush();
    expect(calls).toHaveLength(2);
    const keys = [...calls[0]!.form.keys()];
    expect(keys).toEqual(['batchId', 'imageId', 'sequence', 'scanSubject', 'width', 'height', 'file']);
    expect(calls[0]!.form.get('scanSubject')).toBe('true');
    expect((calls[0]!.form.get('file') as File).name).toBe('page-1.jpg');
    expect(stats()).toMatchObject({ queued: 1, uploading: 2, uploaded: 0 });

    calls[0]!.progress?.(0.5);
    expect(stats().bytesSent).toBe(51);
    calls[0]!.resolve(stored(page(1).imageId));
    await flush();
    expect(calls).toHaveLength(3);
    calls[1]!.resolve({ ...stored(page(2).imageId), duplicate: true });
    calls[2]!.resolve(stored(page(3).imageId));
    await flush();
    expect(stats()).toMatchObject({ queued: 0, uploading: 0, uploaded: 3, failed: 0, bytesTotal: 306, bytesSent: 306 });
  });

  it('keeps a page in the store before enqueue resolves, so a new queue over the same store resumes it', async () => {
    vi.useFakeTimers();
    const store = createMemoryStore();
    const first = setup({ store });
    first.queue.start();
    await first.queue.enqueue(page(1));
    await first.queue.enqueue(page(2));
    await flush();
    expect(first.calls).toHaveLength(2);
    first.calls[0]!.resolve(stored(page(1).imageId));
    await flush();
    // The tab dies with page 2 in flight.
    first.queue.stop();

    const second = setup({ store });
    second.queue.start();
    await flush();
    expect(second.calls).toHaveLength(1);
    expect(second.calls[0]!.form.get('imageId')).toBe(page(2).imageId);
    expect(second.stats()).toMatchObject({ uploaded: 1, uploading: 1 });
  });

  it('retries a network failure after 1 s, then 2 s, and ends uploaded', async () => {
    vi.useFakeTimers();
    const { queue, calls, stats } = setup();
    queue.start();
    await queue.enqueue(page(1));
    await flush();
    calls[0]!.reject(new ApiRequestError('网络连接失败，请检查网络后重试', 0, null, 'network'));
    await flush();
    expect(stats()).toMatchObject({ queued: 1, lastError: '网络连接失败，请检查网络后重试' });
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    calls[1]!.reject(new ApiRequestError('系统内部异常，请联系网站管理员', 500, 500));
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    calls[2]!.resolve(stored(page(1).imageId));
    await flush();
    expect(stats()).toMatchObject({ uploaded: 1, queued: 0 });
  });

  it('marks a page failed on a conflict and uploads it again only on retryFailed', async () => {
    vi.useFakeTimers();
    const { queue, calls, stats } = setup();
    queue.start();
    await queue.enqueue(page(1));
    await flush();
    calls[0]!.reject(new ApiRequestError('该图片编号已上传过另一张图片，请重新扫描此页', 409, 409));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(1);
    expect(stats()).toMatchObject({ failed: 1, lastError: '该图片编号已上传过另一张图片，请重新扫描此页' });
    expect(queue.getPages()[0]).toMatchObject({ state: 'failed', sequence: 1 });
    queue.retryFailed();
    await flush();
    expect(calls).toHaveLength(2);
  });

  it('waits while offline and goes on at once when the browser is back online', async () => {
    vi.useFakeTimers();
    const { queue, calls, net, stats } = setup({ online: false });
    queue.start();
    await queue.enqueue(page(1));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(0);
    expect(stats().queued).toBe(1);
    net.set(false);
    expect(stats().lastError).toBe(OFFLINE_MESSAGE);
    net.set(true);
    await flush();
    expect(calls).toHaveLength(1);
  });

  it('starts nothing before start() and nothing after stop()', async () => {
    vi.useFakeTimers();
    const { queue, calls } = setup();
    await queue.enqueue(page(1));
    await flush();
    expect(calls).toHaveLength(0);
    queue.start();
    await flush();
    expect(calls).toHaveLength(1);
    queue.stop();
    calls[0]!.reject(new ApiRequestError('x', 503, 503));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(1);
  });

  it('ignores a second enqueue of the same image id and clears uploaded pages on request', async () => {
    vi.useFakeTimers();
    const { queue, calls, stats, store } = setup();
    queue.start();
    await queue.enqueue(page(1));
    await queue.enqueue(page(1));
    await flush();
    expect(calls).toHaveLength(1);
    calls[0]!.resolve(stored(page(1).imageId));
    await flush();
    await queue.clearUploaded();
    expect(stats()).toMatchObject({ uploaded: 0, bytesTotal: 0 });
    expect(await store.loadAll()).toEqual([]);
    expect(await queue.getBlob(page(1).imageId)).toBeNull();
  });
});
