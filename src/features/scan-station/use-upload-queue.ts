import { useEffect, useState } from 'react';
import type { QueuedPage, UploadQueue } from '../../shared/adapters/upload-queue';
import type { UploadStats } from '../../shared/lib/upload-schedule';

/**
 * Follows the queue: its numbers and its pages (oldest first). Running the queue is the entry's job, so
 * uploads go on when the page that shows them is left.
 */
export function useUploadQueue(queue: UploadQueue): { stats: UploadStats; pages: QueuedPage[] } {
  const [state, setState] = useState(() => ({ stats: queue.getStats(), pages: queue.getPages() }));
  useEffect(() => queue.subscribe((stats) => setState({ stats, pages: queue.getPages() })), [queue]);
  return state;
}
