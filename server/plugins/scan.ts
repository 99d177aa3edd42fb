/**
 * Scan plugin: builds the scan service over the file storage (`app.storage`) and decorates `app.scan`.
 * Stored pages are announced over realtime to the rooms of the page's school, school year and classes. Owns
 * the wiring only; the logic lives in
 * services/scan and services/storage.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SCAN_PAGE_STORED_EVENT, type ScanPageStoredEvent } from '../../src/shared/contract/scan-upload';
import { createScanService, type ScanService } from '../services/scan/scan.service';
import type { FileStorage } from '../services/storage/file-storage';

export type PageStoredListener = (orgId: number, event: ScanPageStoredEvent) => void;

declare module 'fastify' {
  interface FastifyInstance {
    scan: {
      service: ScanService;
      storage: FileStorage;
      /** Tells `listener` of every page stored from now on (recognition wakes its queue); returns the unsubscribe. */
      onPageStored: (listener: PageStoredListener) => () => void;
    };
  }
}

async function scanPlugin(app: FastifyInstance) {
  const storage = app.storage;
  const listeners = new Set<PageStoredListener>();
  const service = createScanService({
    db: app.database.db,
    storage,
    onPageStored: (orgId, event) => {
      app.emitHomework(orgId, event.homeworkId, SCAN_PAGE_STORED_EVENT, event);
      for (const listener of listeners) listener(orgId, event);
    },
  });
  const onPageStored = (listener: PageStoredListener) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  app.decorate('scan', { service, storage, onPageStored });
}

export default fp(scanPlugin, { name: 'scan', dependencies: ['db', 'realtime', 'files'] });
