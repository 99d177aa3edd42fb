import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '../../shared/adapters/http-client';
import { SCAN_PAGE_STORED_EVENT, scanBatchSchema, scanPageStoredEventSchema } from '../../shared/contract/scan-upload';
import { useScanStationServices, type StationBatch } from './scan-station-services';

const FORBIDDEN = 403;

/** Why the last batch could not be started, kept on the page (a toast vanishes) until a batch starts. */
export type BatchRefusal = { homeworkId: number | null; forbidden: boolean; message: string };

/**
 * The batch the station is filling. A batch belongs to one homework (or to 按二维码识别); choosing
 * another homework starts a new batch at the next scan. The current batch survives a reload; the server's
 * page count of it follows the live `scan.pageStored` events.
 */
export function useScanBatch() {
  const { http, storage, socket, stationName } = useScanStationServices();
  const [batch, setBatch] = useState<StationBatch | null>(() => storage.loadBatch());
  const [serverCount, setServerCount] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<BatchRefusal | null>(null);
  const batchRef = useRef(batch);

  useEffect(() => {
    batchRef.current = batch;
  }, [batch]);

  useEffect(() => {
    if (!socket) return;
    const onStored = (payload: unknown) => {
      const event = scanPageStoredEventSchema.safeParse(payload);
      if (event.success && event.data.batchId === batchRef.current?.batchId) setServerCount(event.data.pageCount);
    };
    socket.on(SCAN_PAGE_STORED_EVENT, onStored);
    return () => {
      socket.off(SCAN_PAGE_STORED_EVENT, onStored);
    };
  }, [socket]);

  /** The batch for `homeworkId`, created on the server when the current one is for something else. */
  const ensureBatch = useCallback(
    async (homeworkId: number | null): Promise<StationBatch> => {
      const current = batchRef.current;
      if (current && current.homeworkId === homeworkId) return current;
      let created;
      try {
        created = await http.postJson('/api/scan/batches', { homeworkId, stationName }, scanBatchSchema);
      } catch (error) {
        const status = error instanceof ApiRequestError ? error.status : 0;
        const message = error instanceof Error ? error.message : String(error);
        setRefusal({ homeworkId, forbidden: status === FORBIDDEN, message });
        throw error;
      }
      setRefusal(null);
      const next = { batchId: created.id, homeworkId };
      batchRef.current = next;
      storage.saveBatch(next);
      setBatch(next);
      setServerCount(0);
      return next;
    },
    [http, storage, stationName],
  );

  return { batch, serverCount, refusal, ensureBatch };
}
