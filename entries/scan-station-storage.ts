/**
 * Where a scanning station (kiosk or portal page) remembers the batch it is filling, so that a reload
 * continues the same batch. Local storage, validated on read.
 */
import { z } from 'zod';
import { getLocalItem, removeLocalItem, setLocalItem } from '../src/shared/adapters/local-storage';
import type { StationStorage } from '../src/features/scan-station/scan-station-services';

const stationBatchSchema = z.object({ batchId: z.number().int().positive(), homeworkId: z.number().int().positive().nullable() });

export function createStationStorage(key: string): StationStorage {
  return {
    loadBatch: () => {
      const parsed = stationBatchSchema.safeParse(getLocalItem(key));
      return parsed.success ? parsed.data : null;
    },
    saveBatch: (batch) => (batch ? void setLocalItem(key, batch) : removeLocalItem(key)),
  };
}
