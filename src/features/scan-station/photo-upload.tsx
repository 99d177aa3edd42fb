/**
 * 拍照上传 on the portal's /scan: a teacher without a scanner photographs answer sheets with the phone's
 * camera (or picks photos from the album). Each photo is turned upright (EXIF orientation) and made a
 * JPEG of at most PHOTO_MAX_SIDE pixels in the browser, then goes to the same durable upload queue and
 * batch as scanned pages; the server reads it as a phone photo (perspective from the four corner
 * squares, lighting levelled). Each photo's outcome is followed from its reading: a blurred or cut-off
 * photo shows why at once (PHOTO_REJECTION_MESSAGES) with 重新拍摄.
 */
import { IconCamera, IconImage } from '@douyinfe/semi-icons';
import { Button, Tag, Typography } from '@douyinfe/semi-ui-19';
import { useCallback, useEffect, useRef, useState } from 'react';
import { pageReadingViewSchema } from '../../shared/contract/marking';
import { PHOTO_REJECTION_MESSAGES } from '../../shared/contract/recognition';
import type { StationBatch } from './scan-station-services';
import { useScanStationServices } from './scan-station-services';
import styles from './scan-station.module.css';

/** Longest side of an uploaded photo: a 12 MP phone photo (4000 x 3000) passes unchanged. */
export const PHOTO_MAX_SIDE = 4096;
const PHOTO_JPEG_QUALITY = 0.9;
const POLL_MS = 2000;

export type PhotoState = 'preparing' | 'uploading' | 'reading' | 'read' | 'review' | 'rejected' | 'failed';
export const PHOTO_STATE_LABELS: Record<PhotoState, string> = {
  preparing: '处理中',
  uploading: '上传中',
  reading: '识别中',
  read: '已识别',
  review: '已识别，待处理异常',
  rejected: '需要重拍',
  failed: '无法读取',
};
const PHOTO_STATE_COLORS = {
  preparing: 'grey',
  uploading: 'blue',
  reading: 'blue',
  read: 'green',
  review: 'orange',
  rejected: 'red',
  failed: 'red',
} as const;

type Photo = { imageId: string; name: string; state: PhotoState; message: string | null };

/** A photo as an upright JPEG no larger than PHOTO_MAX_SIDE (createImageBitmap applies the EXIF orientation). */
export async function photoToJpeg(file: Blob): Promise<{ blob: Blob; width: number; height: number }> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const width = Math.round(bitmap.width * scale);
    const height = Math.round(bitmap.height * scale);
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.drawImage(bitmap, 0, 0, width, height);
    return { blob: await canvas.convertToBlob({ type: 'image/jpeg', quality: PHOTO_JPEG_QUALITY }), width, height };
  } finally {
    bitmap.close();
  }
}

/** What a photo's page reading says for the teacher: still being read, read, to review, or to retake. */
export function photoOutcome(view: { status: string; reading: { photo?: { rejected: 'cutOff' | 'blurred' | null } } | null }): {
  state: PhotoState;
  message: string | null;
} {
  const rejected = view.reading?.photo?.rejected ?? null;
  if (rejected) return { state: 'rejected', message: PHOTO_REJECTION_MESSAGES[rejected] };
  if (view.status === 'stored' || view.status === 'recognising' || !view.reading) return { state: 'reading', message: null };
  if (view.status === 'recognised') return { state: 'read', message: null };
  if (view.status === 'failed') return { state: 'failed', message: '这张照片无法识别，请重新拍摄' };
  return { state: 'review', message: '已交给「阅卷 → 异常处理」' };
}

export type PhotoUploadProps = {
  homeworkId: number | null;
  ensureBatch: (homeworkId: number | null) => Promise<StationBatch>;
  /** The next free sequence number of a batch (after its scanned pages). */
  nextSequence: (batchId: number) => number;
};

export function PhotoUpload({ homeworkId, ensureBatch, nextSequence }: PhotoUploadProps) {
  const { http, queue } = useScanStationServices();
  const camera = useRef<HTMLInputElement>(null);
  const album = useRef<HTMLInputElement>(null);
  const [photos, setPhotos] = useState<Photo[]>([]);
  const update = useCallback((imageId: string, change: Partial<Photo>) => {
    setPhotos((list) => list.map((p) => (p.imageId === imageId ? { ...p, ...change } : p)));
  }, []);

  const add = useCallback(
    async (files: FileList | null) => {
      const picked = [...(files ?? [])];
      if (picked.length === 0) return;
      let batch: StationBatch;
      try {
        batch = await ensureBatch(homeworkId);
      } catch {
        return; // The HTTP client has shown why.
      }
      let sequence = nextSequence(batch.batchId);
      const entries = picked.map((file) => ({ file, imageId: crypto.randomUUID(), sequence: sequence++ }));
      setPhotos((list) => [
        ...entries.map(({ file, imageId }) => ({ imageId, name: file.name, state: 'preparing' as const, message: null })),
        ...list,
      ]);
      for (const { file, imageId, sequence: at } of entries) {
        try {
          const jpeg = await photoToJpeg(file);
          await queue.enqueue({
            imageId,
            blob: jpeg.blob,
            fileName: `photo-${at}.jpg`,
            batchId: batch.batchId,
            sequence: at,
            scanSubject: true,
            width: jpeg.width,
            height: jpeg.height,
          });
          update(imageId, { state: 'uploading' });
        } catch {
          update(imageId, { state: 'failed', message: '无法读取这张图片，请换一张照片或重新拍摄' });
        }
      }
    },
    [ensureBatch, homeworkId, nextSequence, queue, update],
  );

  // Uploaded photos: their readings, until each is read or rejected.
  const open = photos.filter((p) => p.state === 'uploading' || p.state === 'reading');
  const openIds = open.map((p) => p.imageId).join(',');
  useEffect(() => {
    if (openIds === '') return;
    let cancelled = false;
    const timer = setInterval(() => {
      const uploaded = new Set(
        queue
          .getPages()
          .filter((p) => p.state === 'uploaded')
          .map((p) => p.imageId),
      );
      for (const imageId of openIds.split(',')) {
        if (!uploaded.has(imageId)) continue;
        http.get(`/api/marking/pages/${imageId}/reading`, undefined, { schema: pageReadingViewSchema, silent: true }).then(
          (view) => {
            if (!cancelled) update(imageId, photoOutcome(view));
          },
          () => undefined, // Not recognised yet (or the network): asked again at the next tick.
        );
      }
    }, POLL_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [openIds, http, queue, update]);

  return (
    <section className={styles.photos} aria-label="拍照上传">
      <div className={styles.toolbar}>
        <Button icon={<IconCamera />} theme="solid" onClick={() => camera.current?.click()}>
          拍照上传
        </Button>
        <Button icon={<IconImage />} onClick={() => album.current?.click()}>
          从相册选择
        </Button>
        <input
          ref={camera}
          type="file"
          accept="image/*"
          capture="environment"
          multiple
          hidden
          aria-label="拍照"
          onChange={(event) => {
            void add(event.currentTarget.files);
            event.currentTarget.value = '';
          }}
        />
        <input
          ref={album}
          type="file"
          accept="image/*"
          multiple
          hidden
          aria-label="从相册选择照片"
          onChange={(event) => {
            void add(event.currentTarget.files);
            event.currentTarget.value = '';
          }}
        />
      </div>
      <Typography.Text type="tertiary" size="small">
        没有扫描仪时可用手机拍摄答题卡：平放在光线均匀处，四角的黑色定位方块都要拍进画面。
      </Typography.Text>
      {photos.length > 0 ? (
        <ul className={styles.photoList} aria-label="已拍摄的照片">
          {photos.map((photo) => (
            <li key={photo.imageId} className={styles.photoItem}>
              <span className={styles.photoName}>{photo.name}</span>
              <Tag color={PHOTO_STATE_COLORS[photo.state]}>{PHOTO_STATE_LABELS[photo.state]}</Tag>
              {photo.message ? (
                <Typography.Text
                  type={photo.state === 'review' ? 'secondary' : 'danger'}
                  size="small"
                  className={styles.photoMessage}
                >
                  {photo.message}
                </Typography.Text>
              ) : null}
              {photo.state === 'rejected' || photo.state === 'failed' ? (
                <Button size="small" icon={<IconCamera />} onClick={() => camera.current?.click()}>
                  重新拍摄
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
