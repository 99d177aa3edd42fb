import { useEffect, useState } from 'react';
import type { UploadQueue } from '../../shared/adapters/upload-queue';

/** An object URL of a queued page's stored image, revoked when the page is no longer shown. */
export function usePageThumbnail(queue: UploadQueue, imageId: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let created: string | null = null;
    let cancelled = false;
    void queue.getBlob(imageId).then((blob) => {
      if (cancelled || !blob) return;
      created = URL.createObjectURL(blob);
      setUrl(created);
    });
    return () => {
      cancelled = true;
      if (created) URL.revokeObjectURL(created);
    };
  }, [queue, imageId]);
  return url;
}
