/**
 * Builds the real app against a real, fresh database for one test file: in-memory PGlite, or a new
 * schema in the PostgreSQL named by TEST_DATABASE_URL when the project runs with TEST_DB_KIND=postgres.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../server/app';
import type { DatabaseOptions } from '../../server/db/client';

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

export async function createTestApp(overrides: { seedDemo?: boolean; clientDir?: string } = {}) {
  const { options, drop } = testDatabaseOptions();
  const app = await buildApp({
    config: {
      clientDir: overrides.clientDir ?? '/nonexistent-client-dir',
      seedDemo: overrides.seedDemo ?? true,
      nodeEnv: 'test',
    },
    database: options,
  });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/** One app for the whole test file, closed (and its schema dropped) after the last test. */
export function useTestApp(overrides: Parameters<typeof createTestApp>[0] = {}): () => FastifyInstance {
  let handle: Awaited<ReturnType<typeof createTestApp>> | undefined;
  beforeAll(async () => {
    handle = await createTestApp(overrides);
  });
  afterAll(async () => {
    await handle?.close();
  });
  return () => {
    if (!handle) throw new Error('test app is not ready');
    return handle.app;
  };
}
