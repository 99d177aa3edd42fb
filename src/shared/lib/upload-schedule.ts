/**
 * The pure core of the durable upload queue: the state of each queued page, which pages to upload next,
 * when to try again (exponential backoff with jitter, 1 s up to 60 s), which failures are worth retrying,
 * and the numbers the progress bar shows. No IO, no timers: the queue adapter (adapters/upload-queue.ts)
 * keeps the records in IndexedDB and runs the uploads.
 */

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_CAP_MS = 60_000;
/** Pages uploaded at the same time: two keep the line busy without starving the scanner's thread. */
export const MAX_CONCURRENT_UPLOADS = 2;

export type UploadState = 'queued' | 'uploading' | 'uploaded' | 'failed';

export type UploadRecord = {
  imageId: string;
  state: UploadState;
  /** Failed attempts so far (reset by a manual retry). */
  attempts: number;
  /** Epoch ms before which a queued page is not tried again. */
  notBefore: number;
  lastError: string | null;
  bytes: number;
  /** Bytes of this page the server has received in the current attempt (all of them once uploaded). */
  sentBytes: number;
  /** Order of arrival: pages upload oldest first. */
  enqueuedAt: number;
};

export type UploadStats = {
  queued: number;
  uploading: number;
  uploaded: number;
  failed: number;
  bytesTotal: number;
  bytesSent: number;
  lastError: string | null;
};

/** What went wrong with one attempt, as the HTTP client reports it. */
export type UploadFailure = { status: number; kind: string; message: string };

export function newRecord(imageId: string, bytes: number, now: number): UploadRecord {
  return { imageId, state: 'queued', attempts: 0, notBefore: now, lastError: null, bytes, sentBytes: 0, enqueuedAt: now };
}

/**
 * The wait before attempt `attempts + 1` after `attempts` failures: 1 s, 2 s, 4 s ... capped at 60 s,
 * then "equal jitter" (half fixed, half random) so that stations that lost the server together do not
 * come back in lockstep.
 */
export function backoffDelay(attempts: number, random: () => number = Math.random): number {
  const exponential = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/**
 * Whether a failed attempt is worth repeating: no answer (network, timeout), a server error, a rate
 * limit, or a lost login (the page waits until someone logs in again). Other answers (400 not a JPEG,
 * 404 batch gone, 409 another image under this id) will not change by retrying.
 */
export function isRetryable(failure: UploadFailure): boolean {
  if (failure.status === 0) return failure.kind !== 'invalid';
  return failure.status >= 500 || failure.status === 401 || failure.status === 408 || failure.status === 429;
}

/** The pages to start now: queued, due, oldest first, as many as free upload slots allow. */
export function pickNext(
  records: Iterable<UploadRecord>,
  now: number,
  online: boolean,
  limit = MAX_CONCURRENT_UPLOADS,
): string[] {
  if (!online) return [];
  const all = [...records];
  const free = limit - all.filter((r) => r.state === 'uploading').length;
  if (free <= 0) return [];
  return all
    .filter((r) => r.state === 'queued' && r.notBefore <= now)
    .sort((a, b) => a.enqueuedAt - b.enqueuedAt || a.imageId.localeCompare(b.imageId))
    .slice(0, free)
    .map((r) => r.imageId);
}

/** When the next waiting page becomes due (null when none waits). */
export function nextWakeAt(records: Iterable<UploadRecord>, now: number): number | null {
  let earliest: number | null = null;
  for (const r of records) {
    if (r.state !== 'queued') continue;
    const due = Math.max(now, r.notBefore);
    if (earliest === null || due < earliest) earliest = due;
  }
  return earliest;
}

export function markUploading(record: UploadRecord): UploadRecord {
  return { ...record, state: 'uploading', sentBytes: 0 };
}

export function markProgress(record: UploadRecord, ratio: number): UploadRecord {
  return { ...record, sentBytes: Math.round(record.bytes * Math.min(1, Math.max(0, ratio))) };
}

export function markUploaded(record: UploadRecord): UploadRecord {
  return { ...record, state: 'uploaded', sentBytes: record.bytes, lastError: null };
}

/** After a failed attempt: back to the queue with a backoff, or failed for good. */
export function markAttemptFailed(
  record: UploadRecord,
  failure: UploadFailure,
  now: number,
  random: () => number = Math.random,
): UploadRecord {
  const attempts = record.attempts + 1;
  const base = { ...record, attempts, sentBytes: 0, lastError: failure.message };
  if (!isRetryable(failure)) return { ...base, state: 'failed' };
  return { ...base, state: 'queued', notBefore: now + backoffDelay(attempts, random) };
}

/** A manual retry: failed pages go back to the queue at once, their backoff forgotten. */
export function retryFailed(record: UploadRecord, now: number): UploadRecord {
  return record.state === 'failed' ? { ...record, state: 'queued', attempts: 0, notBefore: now, lastError: null } : record;
}

/**
 * After a reload (or coming back online) nothing is uploading any more, and waiting pages need not
 * wait out a backoff earned against a server that may be back.
 */
export function resume(record: UploadRecord, now: number): UploadRecord {
  if (record.state === 'uploading') return { ...record, state: 'queued', sentBytes: 0, notBefore: now };
  if (record.state === 'queued') return { ...record, notBefore: Math.min(record.notBefore, now) };
  return record;
}

export function computeStats(records: Iterable<UploadRecord>, lastError: string | null): UploadStats {
  const stats: UploadStats = { queued: 0, uploading: 0, uploaded: 0, failed: 0, bytesTotal: 0, bytesSent: 0, lastError };
  for (const r of records) {
    stats[r.state] += 1;
    stats.bytesTotal += r.bytes;
    stats.bytesSent += r.state === 'uploaded' ? r.bytes : r.sentBytes;
  }
  return stats;
}
