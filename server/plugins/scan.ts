/**
 * Scan plugin: builds file storage under DATA_DIR and the scan service over it, and decorates `app.scan`.
 * Stored pages are announced to the page's school over realtime. Owns the wiring only; the logic lives in
 * services/scan and services/storage.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SCAN_PAGE_STORED_EVENT, type ScanPageStoredEvent } from '../../src/shared/contract/scan-upload';
import { createScanService, type ScanService } from '../services/scan/scan.service';
import { createLocalFileStorage, type FileStorage } from '../services/storage/file-storage';
import { orgRoom } from './realtime';

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

export type ScanPluginOptions = { dataDir: string };

async function scanPlugin(app: FastifyInstance, options: ScanPluginOptions) {
  const storage = createLocalFileStorage(path.resolve(options.dataDir));
  const listeners = new Set<PageStoredListener>();
  const service = createScanService({
    db: app.database.db,
    storage,
    onPageStored: (orgId, event) => {
      app.realtime.to(orgRoom(orgId)).emit(SCAN_PAGE_STORED_EVENT, event);
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

export default fp(scanPlugin, { name: 'scan', dependencies: ['db', 'realtime'] });
