import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { photoOutcome } from '../../../src/features/scan-station/photo-upload';
import { ScanWorkspace } from '../../../src/features/scan-station/scan-workspace';
import { ScanStationServicesProvider, type ScanStationServices } from '../../../src/features/scan-station/scan-station-services';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import type { QueuedPage, UploadItem, UploadQueue } from '../../../src/shared/adapters/upload-queue';
import { PHOTO_REJECTION_MESSAGES } from '../../../src/shared/contract/recognition';

const EMPTY_STATS = { queued: 0, uploading: 0, uploaded: 0, failed: 0, bytesTotal: 0, bytesSent: 0, lastError: null };

/** The browser's image decoding and canvas, which jsdom lacks: a 4032 x 3024 photo, re-encoded as a JPEG. */
function stubImageApis() {
  const close = vi.fn();
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(async () => ({ width: 4032, height: 3024, close })),
  );
  vi.stubGlobal(
    'OffscreenCanvas',
    class {
      constructor(
        readonly width: number,
        readonly height: number,
      ) {}
      getContext() {
        return { drawImage: () => undefined };
      }
      async convertToBlob() {
        return new Blob(['jpeg'], { type: 'image/jpeg' });
      }
    },
  );
  return { close };
}

function setup(reading: { status: string; reading: unknown }) {
  const stored: UploadItem[] = [];
  const queue = {
    enqueue: vi.fn(async (item: UploadItem) => {
      stored.push(item);
    }),
    start: () => undefined,
    stop: () => undefined,
    subscribe: () => () => undefined,
    retryFailed: () => undefined,
    clearUploaded: async () => undefined,
    // Every photo enqueued has reached the server.
    getPages: () => stored.map((item) => ({ ...item, state: 'uploaded' }) as unknown as QueuedPage),
    getBlob: async () => null,
    getStats: () => EMPTY_STATS,
  } satisfies UploadQueue;
  const get = vi.fn(async (url: string) => {
    if (url === '/api/homework/scannable') return [];
    return { imageId: url.split('/')[4], homeworkId: null, ...reading };
  });
  const http = { get, postJson: vi.fn(async () => ({ id: 41 })) } as unknown as HttpClient;
  const services: ScanStationServices = {
    http,
    queue,
    socket: null,
    storage: { loadBatch: () => null, saveBatch: () => undefined },
    stationName: '王老师',
    useScanner: () => ({
      status: 'ready',
      problem: null,
      simulated: false,
      scannerChosen: true,
      serviceMissing: false,
      scan: () => undefined,
      stop: () => undefined,
      renderSettings: () => null,
    }),
  };
  render(
    <ScanStationServicesProvider services={services}>
      <ScanWorkspace photos />
    </ScanStationServicesProvider>,
  );
  return { stored, get };
}

describe('拍照上传 on /scan', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('offers the camera and the album, uploads the photos as upright JPEGs into the batch, and says at once when one must be retaken', async () => {
    const { close } = stubImageApis();
    const user = userEvent.setup();
    const { stored, get } = setup({
      status: 'review',
      reading: {
        qr: null,
        qrText: null,
        rotation: 0,
        transform: null,
        scale: null,
        skewDeg: null,
        objective: [],
        regions: [],
        confidence: 0,
        problems: [{ kind: 'fiducialsNotFound', detail: 'photo blurred' }],
        elapsedMs: 12,
        photo: { rejected: 'blurred', edgeMm: null },
      },
    });
    // 拍照上传 loads lazily with the portal's page.
    const camera = await screen.findByLabelText('拍照');
    expect(camera).toHaveAttribute('accept', 'image/*');
    expect(camera).toHaveAttribute('capture', 'environment');
    expect(camera).toHaveAttribute('multiple');
    expect(screen.getByLabelText('从相册选择照片')).not.toHaveAttribute('capture');

    const photos = [
      new File(['a'], 'IMG_0001.HEIC', { type: 'image/heic' }),
      new File(['b'], 'IMG_0002.jpg', { type: 'image/jpeg' }),
    ];
    await user.upload(camera, photos);
    await waitFor(() => expect(stored).toHaveLength(2));
    expect(
      stored.map((item) => [item.batchId, item.sequence, item.scanSubject, item.width, item.height, item.blob.type]),
    ).toEqual([
      [41, 1, true, 4032, 3024, 'image/jpeg'],
      [41, 2, true, 4032, 3024, 'image/jpeg'],
    ]);
    expect(close).toHaveBeenCalledTimes(2);

    // The server rejected them as blurred: the reason and 重新拍摄, without leaving the page.
    expect(await screen.findAllByText(PHOTO_REJECTION_MESSAGES.blurred, undefined, { timeout: 5000 })).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: /重新拍摄/ })).toHaveLength(2);
    expect(get).toHaveBeenCalledWith(`/api/marking/pages/${stored[0]!.imageId}/reading`, undefined, expect.anything());
  }, 30_000);

  it('names each outcome of a photo from its page reading', () => {
    expect(photoOutcome({ status: 'recognising', reading: null }).state).toBe('reading');
    expect(photoOutcome({ status: 'recognised', reading: { photo: { rejected: null } } }).state).toBe('read');
    expect(photoOutcome({ status: 'review', reading: {} })).toEqual({ state: 'review', message: '已交给「阅卷 → 异常处理」' });
    expect(photoOutcome({ status: 'review', reading: { photo: { rejected: 'cutOff' } } })).toEqual({
      state: 'rejected',
      message: PHOTO_REJECTION_MESSAGES.cutOff,
    });
  });
});
