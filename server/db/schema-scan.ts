/**
 * Tables of the scan station: scan batches (扫描批次, one scanning session at one station) and the
 * scanned pages uploaded into them. A page's image lives in file storage; the row keeps where and its
 * SHA-256, so a repeated upload of the same image id is recognised and stored only once.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgs, users } from './schema-accounts';
import { homework } from './schema-papers';

const createdAt = () =>
  timestamp('created_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`);

export const scanBatches = pgTable(
  'scan_batches',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** Null: each sheet's homework is recognised from its QR code. */
    homeworkId: integer('homework_id').references(() => homework.id, { onDelete: 'cascade' }),
    stationName: text('station_name').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    pageCount: integer('page_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('scan_batches_org_homework_idx').on(t.orgId, t.homeworkId, t.createdAt)],
);

export const scanPages = pgTable(
  'scan_pages',
  {
    id: serial('id').primaryKey(),
    imageId: uuid('image_id').notNull().unique(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => scanBatches.id, { onDelete: 'cascade' }),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    homeworkId: integer('homework_id').references(() => homework.id, { onDelete: 'cascade' }),
    sequence: integer('sequence').notNull(),
    scanSubject: boolean('scan_subject').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    /** Path inside file storage, e.g. scans/1/7/<imageId>.jpg. */
    storedPath: text('stored_path').notNull(),
    /** stored (recognition will add its own states) */
    status: text('status').notNull().default('stored'),
    createdAt: createdAt(),
  },
  (t) => [index('scan_pages_batch_idx').on(t.batchId, t.sequence), index('scan_pages_homework_idx').on(t.homeworkId)],
);
