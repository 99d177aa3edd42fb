import { describe, expect, it } from 'vitest';
import {
  BACKOFF_CAP_MS,
  backoffDelay,
  computeStats,
  isRetryable,
  markAttemptFailed,
  markProgress,
  markUploaded,
  markUploading,
  newRecord,
  nextWakeAt,
  pickNext,
  resume,
  retryFailed,
  type UploadRecord,
} from '../../../src/shared/lib/upload-schedule';

const networkDown = { status: 0, kind: 'network', message: '网络连接失败，请检查网络后重试' };
const record = (imageId: string, at: number, patch: Partial<UploadRecord> = {}): UploadRecord => ({
  ...newRecord(imageId, 1000, at),
  ...patch,
});

describe('backoff', () => {
  it('doubles from 1 s and stops growing at 60 s', () => {
    const upper = (attempts: number) => backoffDelay(attempts, () => 1);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(upper)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, BACKOFF_CAP_MS]);
  });

  it('jitters within the upper half of the step', () => {
    expect(backoffDelay(3, () => 0)).toBe(2000);
    expect(backoffDelay(3, () => 0.5)).toBe(3000);
    expect(backoffDelay(10, () => 0)).toBe(30000);
  });
});

describe('which failures are retried', () => {
  it.each([
    [0, 'network', true],
    [0, 'timeout', true],
    [500, 'http', true],
    [503, 'http', true],
    [401, 'http', true],
    [429, 'http', true],
    [400, 'http', false],
    [403, 'http', false],
    [404, 'http', false],
    [409, 'http', false],
    [0, 'invalid', false],
  ])('status %i (%s) retried: %s', (status, kind, expected) => {
    expect(isRetryable({ status, kind, message: '' })).toBe(expected);
  });

  it('puts a retryable failure back in the queue behind its backoff', () => {
    const failed = markAttemptFailed(markUploading(record('a', 0)), networkDown, 10_000, () => 1);
    expect(failed).toMatchObject({
      state: 'queued',
      attempts: 1,
      notBefore: 11_000,
      lastError: networkDown.message,
      sentBytes: 0,
    });
    const again = markAttemptFailed(markUploading(failed), networkDown, 11_000, () => 1);
    expect(again).toMatchObject({ attempts: 2, notBefore: 13_000 });
  });

  it('fails a page for good on a conflict, until a manual retry', () => {
    const failed = markAttemptFailed(markUploading(record('a', 0)), { status: 409, kind: 'http', message: '冲突' }, 5);
    expect(failed.state).toBe('failed');
    expect(retryFailed(failed, 99)).toMatchObject({ state: 'queued', attempts: 0, notBefore: 99, lastError: null });
    const uploaded = markUploaded(record('b', 0));
    expect(retryFailed(uploaded, 99)).toBe(uploaded);
  });
});

describe('picking pages', () => {
  it('starts the oldest due pages, two at a time', () => {
    const records = [record('c', 3), record('a', 1), record('b', 2), record('d', 4)];
    expect(pickNext(records, 10, true)).toEqual(['a', 'b']);
    expect(pickNext([markUploading(records[1]!), ...records.slice(2)], 10, true)).toEqual(['b']);
  });

  it('leaves pages waiting on a backoff and starts nothing offline', () => {
    const records = [record('a', 1, { notBefore: 500 }), record('b', 2)];
    expect(pickNext(records, 10, true)).toEqual(['b']);
    expect(pickNext(records, 10, false)).toEqual([]);
    expect(pickNext(records, 500, true)).toEqual(['a', 'b']);
  });

  it('wakes when the earliest waiting page is due, and not for uploaded or failed pages', () => {
    expect(nextWakeAt([record('a', 1, { notBefore: 700 }), record('b', 2, { notBefore: 300 })], 100)).toBe(300);
    expect(nextWakeAt([record('a', 1, { notBefore: 50 })], 100)).toBe(100);
    expect(nextWakeAt([markUploaded(record('a', 1)), { ...record('b', 1), state: 'failed' }], 100)).toBeNull();
  });

  it('after a reload, requeues interrupted uploads and forgets backoffs', () => {
    expect(resume(markUploading(record('a', 1)), 50)).toMatchObject({ state: 'queued', notBefore: 50, sentBytes: 0 });
    expect(resume(record('b', 1, { notBefore: 9_000 }), 50).notBefore).toBe(50);
    expect(resume(markUploaded(record('c', 1)), 50).state).toBe('uploaded');
  });
});

describe('stats', () => {
  it('counts pages by state and bytes sent, in-flight progress included', () => {
    const records = [
      markUploaded(record('a', 1)),
      markProgress(markUploading(record('b', 2)), 0.25),
      record('c', 3),
      { ...record('d', 4), state: 'failed' as const, lastError: 'x' },
    ];
    expect(computeStats(records, 'x')).toEqual({
      queued: 1,
      uploading: 1,
      uploaded: 1,
      failed: 1,
      bytesTotal: 4000,
      bytesSent: 1250,
      lastError: 'x',
    });
  });
});
