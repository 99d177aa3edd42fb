/**
 * Builds the real app against a real, fresh database for one test file: in-memory PGlite, or a new
 * schema in the PostgreSQL named by TEST_DATABASE_URL when the project runs with TEST_DB_KIND=postgres.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type AppOptions, buildApp } from '../../server/app';
import type { DatabaseOptions } from '../../server/db/client';
import { testAppConfig } from '../support/test-app-config';

export function testDatabaseOptions(): { options: DatabaseOptions; drop: () => Promise<void> } {
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB_KIND !== 'postgres' || !url) {
    return { options: { kind: 'pglite' }, drop: async () => undefined };
  }
  const schemaName = `test_${randomBytes(6).toString('hex')}`;
  return {
    options: { kind: 'postgres', url, schemaName },
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schemaName}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

export type TestAppOverrides = {
  seedDemo?: boolean;
  clientDir?: string;
  /** Any other configuration value; the rest are the documented defaults. */
  config?: Partial<AppOptions['config']>;
  now?: AppOptions['now'];
  smsSender?: AppOptions['smsSender'];
  onRoute?: AppOptions['onRoute'];
};

export async function createTestApp(overrides: TestAppOverrides = {}) {
  const { options, drop } = testDatabaseOptions();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-data-'));
  const app = await buildApp({
    config: testAppConfig(dataDir, {
      ...(overrides.clientDir === undefined ? {} : { clientDir: overrides.clientDir }),
      ...(overrides.seedDemo === undefined ? {} : { seedDemo: overrides.seedDemo }),
      ...overrides.config,
    }),
    database: options,
    now: overrides.now,
    smsSender: overrides.smsSender,
    onRoute: overrides.onRoute,
  });
  await app.ready();
  return {
    app,
    dataDir,
    close: async () => {
      await app.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One app for the whole test file, closed (and its schema dropped) after the last test. */
export function useTestApp(overrides: TestAppOverrides = {}): (() => FastifyInstance) & { dataDir: () => string } {
  let handle: Awaited<ReturnType<typeof createTestApp>> | undefined;
  beforeAll(async () => {
    handle = await createTestApp(overrides);
  });
  afterAll(async () => {
    await handle?.close();
  });
  const ready = () => {
    if (!handle) throw new Error('test app is not ready');
    return handle;
  };
  // DATA_DIR of the app (stored files live in DATA_DIR/files, scans in DATA_DIR/scans).
  return Object.assign(() => ready().app, { dataDir: () => ready().dataDir });
}
