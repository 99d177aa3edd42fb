/**
 * Opens the database: PGlite (embedded PostgreSQL in a data folder) when no URL is given, PostgreSQL
 * through `pg` otherwise. Both are handed out as one drizzle type so services never know which one runs.
 * Owns connection lifetime and migrations; does not own seeding (see seed.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { DatabaseKind } from '../../src/shared/contract/health';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database = {
  db: Db;
  kind: DatabaseKind;
  /** The server's own `select version()` line. */
  version: () => Promise<string>;
  close: () => Promise<void>;
  /** PGlite only: a consistent tar.gz of its data folder, taken between queries (backups). */
  dumpDataDir?: () => Promise<Blob>;
};

export type DatabaseOptions =
  /** `dataDir` undefined keeps PGlite in memory (tests). */
  | { kind: 'pglite'; dataDir?: string }
  /** `schemaName` isolates one test file's tables inside a shared PostgreSQL database. */
  | { kind: 'postgres'; url: string; schemaName?: string };

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATIONS_SCHEMA = 'drizzle';

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.kind === 'pglite' ? await openPglite(options.dataDir) : await openPostgres(options);
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function openPglite(dataDir: string | undefined): Promise<Database & { migrate: () => Promise<void> }> {
  if (dataDir) await fs.mkdir(dataDir, { recursive: true });
  const client = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    version: () => selectVersion(db as unknown as Db),
    migrate: () => migratePglite(db, { migrationsFolder, migrationsSchema: MIGRATIONS_SCHEMA }),
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir('gzip'),
  };
}

async function openPostgres(options: { url: string; schemaName?: string }): Promise<Database & { migrate: () => Promise<void> }> {
  const { url, schemaName } = options;
  if (schemaName !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schemaName)) {
    throw new Error(`Invalid schema name: ${schemaName}`);
  }
  if (schemaName) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists "${schemaName}"`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schemaName ? { options: `-c search_path=${schemaName}` } : {}),
  });
  // A broken idle connection must not crash the process; the next query reports the problem instead.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    version: () => selectVersion(db as unknown as Db),
    migrate: () => migratePg(db, { migrationsFolder, migrationsSchema: schemaName ?? MIGRATIONS_SCHEMA }),
    close: () => pool.end(),
  };
}

async function selectVersion(db: Db): Promise<string> {
  const rows = await db.execute<{ version: string }>(sql`select version() as version`);
  const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: { version: string }[] }).rows;
  return list[0]?.version ?? 'unknown';
}
