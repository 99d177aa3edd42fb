/**
 * The durable upload queue of scanned pages. A page is written to IndexedDB before `enqueue` resolves,
 * so a crash, a reload or a lost server loses nothing; the queue then uploads pages one or two at a time
 * to POST /api/scan/pages with progress, retries network and server failures with backoff, waits while
 * the browser is offline, and picks up where it left off after a reload (`start`). A page is done when
 * the server answers 200, a duplicate included (it already has the page).
 * Owns IndexedDB and the upload calls; the scheduling rules live in lib/upload-schedule.ts, and what to
 * show is the caller's business (`subscribe`, `getPages`).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { scanPageStoredSchema } from '../contract/scan-upload';
import {
  computeStats,
  markAttemptFailed,
  markProgress,
  markUploaded,
  markUploading,
  newRecord,
  nextWakeAt,
  pickNext,
  resume,
  retryFailed as retryRecord,
  type UploadRecord,
  type UploadStats,
} from '../lib/upload-schedule';
import { ApiRequestError, type HttpClient } from './http-client';

export const SCAN_PAGE_UPLOAD_PATH = '/api/scan/pages';
export const OFFLINE_MESSAGE = '网络已断开';

export type UploadItem = {
  imageId: string;
  blob: Blob;
  fileName: string;
  batchId: number;
  sequence: number;
  scanSubject: boolean;
  width: number;
  height: number;
};

/** One page as the queue keeps it: what to send and how far it got. */
export type QueuedPage = Omit<UploadItem, 'blob'> & UploadRecord;

export type UploadQueueListener = (stats: UploadStats) => void;

export type UploadQueue = {
  enqueue(item: UploadItem): Promise<void>;
  start(): void;
  stop(): void;
  subscribe(listener: UploadQueueListener): () => void;
  retryFailed(): void;
  clearUploaded(): Promise<void>;
  /** The pages the queue holds, oldest first (call from a listener to follow per-page states). */
  getPages(): QueuedPage[];
  /** The stored image of a page, for thumbnails (null once cleared). */
  getBlob(imageId: string): Promise<Blob | null>;
  getStats(): UploadStats;
};

/** Where the queue keeps its pages: IndexedDB in the browser, a Map in unit tests. */
export type UploadStore = {
  loadAll(): Promise<QueuedPage[]>;
  add(page: QueuedPage, blob: Blob): Promise<void>;
  update(page: QueuedPage): Promise<void>;
  blob(imageId: string): Promise<Blob | null>;
  remove(imageIds: string[]): Promise<void>;
};

/** Whether the browser says it is online, and how to hear when that changes. */
export type Connectivity = { isOnline(): boolean; onChange(listener: () => void): () => void };

export type UploadQueueOptions = {
  http: HttpClient;
  dbName?: string;
  now?: () => number;
  random?: () => number;
  store?: UploadStore;
  connectivity?: Connectivity;
};

interface QueueDb extends DBSchema {
  pages: { key: string; value: QueuedPage };
  blobs: { key: string; value: Blob };
}

export function createIndexedDbStore(dbName: string): UploadStore {
  let opened: Promise<IDBPDatabase<QueueDb>> | null = null;
  const db = () =>
    (opened ??= openDB<QueueDb>(dbName, 1, {
      upgrade(database) {
        database.createObjectStore('pages', { keyPath: 'imageId' });
        database.createObjectStore('blobs');
      },
    }));
  return {
    async loadAll() {
      return (await db()).getAll('pages');
    },
    async add(page, blob) {
      const tx = (await db()).transaction(['pages', 'blobs'], 'readwrite');
      await Promise.all([tx.objectStore('blobs').put(blob, page.imageId), tx.objectStore('pages').put(page), tx.done]);
    },
    async update(page) {
      await (await db()).put('pages', page);
    },
    async blob(imageId) {
      return (await (await db()).get('blobs', imageId)) ?? null;
    },
    async remove(imageIds) {
      const tx = (await db()).transaction(['pages', 'blobs'], 'readwrite');
      await Promise.all([
        ...imageIds.flatMap((id) => [tx.objectStore('pages').delete(id), tx.objectStore('blobs').delete(id)]),
        tx.done,
      ]);
    },
  };
}

export function createMemoryStore(): UploadStore {
  const pages = new Map<string, QueuedPage>();
  const blobs = new Map<string, Blob>();
  return {
    loadAll: async () => [...pages.values()].map((page) => ({ ...page })),
    add: async (page, blob) => {
      pages.set(page.imageId, { ...page });
      blobs.set(page.imageId, blob);
    },
    update: async (page) => {
      pages.set(page.imageId, { ...page });
    },
    blob: async (imageId) => blobs.get(imageId) ?? null,
    remove: async (imageIds) => {
      for (const id of imageIds) {
        pages.delete(id);
        blobs.delete(id);
      }
    },
  };
}

export const browserConnectivity: Connectivity = {
  isOnline: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  onChange(listener) {
    window.addEventListener('online', listener);
    window.addEventListener('offline', listener);
    return () => {
      window.removeEventListener('online', listener);
      window.removeEventListener('offline', listener);
    };
  },
};

function failureOf(error: unknown): { status: number; kind: string; message: string } {
  if (error instanceof ApiRequestError) return { status: error.status, kind: error.kind, message: error.message };
  return { status: 0, kind: 'network', message: error instanceof Error ? error.message : String(error) };
}

export function createUploadQueue(options: UploadQueueOptions): UploadQueue {
  const { http } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const store = options.store ?? createIndexedDbStore(options.dbName ?? 'sh-upload-queue');
  const connectivity = options.connectivity ?? browserConnectivity;

  const pages = new Map<string, QueuedPage>();
  const listeners = new Set<UploadQueueListener>();
  let lastError: string | null = null;
  let running = false;
  let loaded: Promise<void> | null = null;
  let wakeTimer: ReturnType<typeof setTimeout> | null = null;
  let unlistenConnectivity: (() => void) | null = null;
  let generation = 0;

  const sorted = () => [...pages.values()].sort((a, b) => a.enqueuedAt - b.enqueuedAt || a.sequence - b.sequence);
  const stats = () => computeStats(pages.values(), lastError);
  const notify = () => {
    const current = stats();
    for (const listener of listeners) listener(current);
  };

  function load(): Promise<void> {
    loaded ??= store.loadAll().then((stored) => {
      for (const page of stored) if (!pages.has(page.imageId)) pages.set(page.imageId, { ...page, ...resume(page, now()) });
      notify();
    });
    return loaded;
  }

  function save(page: QueuedPage, persist = true): void {
    pages.set(page.imageId, page);
    // A failed write only loses a state change: on reload the page is uploaded again and answered as a duplicate.
    if (persist) store.update(page).catch(() => undefined);
    notify();
  }

  function schedule(): void {
    if (wakeTimer) clearTimeout(wakeTimer);
    wakeTimer = null;
    if (!running || !connectivity.isOnline()) return;
    const at = nextWakeAt(pages.values(), now());
    if (at === null) return;
    wakeTimer = setTimeout(pump, Math.max(0, at - now()));
  }

  function pump(): void {
    wakeTimer = null;
    if (!running) return;
    for (const imageId of pickNext(pages.values(), now(), connectivity.isOnline())) void upload(imageId, generation);
    schedule();
  }

  async function upload(imageId: string, runGeneration: number): Promise<void> {
    const page = pages.get(imageId);
    if (!page) return;
    save({ ...page, ...markUploading(page) });
    const current = () => pages.get(imageId)!;
    try {
      const blob = await store.blob(imageId);
      if (!blob) throw new ApiRequestError('本地扫描图片已丢失，请重新扫描此页', 0, null, 'invalid');
      const form = new FormData();
      // Text fields first: the server reads them before the file.
      form.append('batchId', String(page.batchId));
      form.append('imageId', page.imageId);
      form.append('sequence', String(page.sequence));
      form.append('scanSubject', String(page.scanSubject));
      form.append('width', String(page.width));
      form.append('height', String(page.height));
      form.append('file', blob, page.fileName);
      await http.upload(
        SCAN_PAGE_UPLOAD_PATH,
        form,
        { onProgress: (ratio) => save({ ...current(), ...markProgress(current(), ratio) }, /* persist */ false) },
        { schema: scanPageStoredSchema, silent: true },
      );
      save({ ...current(), ...markUploaded(current()) });
    } catch (error) {
      const failure = failureOf(error);
      lastError = failure.message;
      save({ ...current(), ...markAttemptFailed(current(), failure, now(), random) });
    }
    // A stop() and start() in between began a new run that already owns the scheduling.
    if (runGeneration === generation) pump();
  }

  return {
    async enqueue(item) {
      await load();
      if (pages.has(item.imageId)) return;
      const { blob, ...fields } = item;
      const page: QueuedPage = { ...fields, ...newRecord(item.imageId, blob.size, now()) };
      await store.add(page, blob);
      pages.set(page.imageId, page);
      notify();
      pump();
    },

    start() {
      if (running) return;
      running = true;
      generation += 1;
      unlistenConnectivity = connectivity.onChange(() => {
        if (!connectivity.isOnline()) {
          lastError = OFFLINE_MESSAGE;
          notify();
          return schedule();
        }
        // Back online: whatever waited on a backoff may go now.
        for (const page of pages.values())
          if (page.state === 'queued') pages.set(page.imageId, { ...page, ...resume(page, now()) });
        pump();
      });
      void load().then(pump);
    },

    stop() {
      running = false;
      generation += 1;
      if (wakeTimer) clearTimeout(wakeTimer);
      wakeTimer = null;
      unlistenConnectivity?.();
      unlistenConnectivity = null;
    },

    subscribe(listener) {
      listeners.add(listener);
      listener(stats());
      return () => listeners.delete(listener);
    },

    retryFailed() {
      lastError = null;
      for (const page of [...pages.values()]) if (page.state === 'failed') save({ ...page, ...retryRecord(page, now()) });
      notify();
      pump();
    },

    async clearUploaded() {
      await load();
      const done = [...pages.values()].filter((page) => page.state === 'uploaded').map((page) => page.imageId);
      await store.remove(done);
      for (const id of done) pages.delete(id);
      notify();
    },

    getPages: sorted,
    getBlob: (imageId) => store.blob(imageId),
    getStats: stats,
  };
}
