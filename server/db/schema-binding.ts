/**
 * 装订 jobs: one row per booklet being made or made, so a job outlives the instance that started it.
 * The finished file lives in the file storage (`file_path`); the row keeps what the page polls (status,
 * progress) and what is needed to start the job again (`input`) when its instance stopped mid-way
 * (`heartbeat_at` stops moving). Part of the schema root (schema.ts).
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { BindingJobCreate } from '../../src/shared/contract/binding';
import { orgs, users } from './schema-accounts';

export const bindingJobs = pgTable(
  'binding_jobs',
  {
    id: uuid('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The request as validated (bindingJobCreateSchema's output). */
    input: jsonb('input').$type<BindingJobCreate>().notNull(),
    /** running | done | failed */
    status: text('status').notNull().default('running'),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    title: text('title').notNull(),
    fileName: text('file_name'),
    contentType: text('content_type'),
    /** The file's key in the file storage, once done. */
    filePath: text('file_path'),
    error: text('error'),
    /** Moved on by the instance running the job; a running job whose heartbeat stopped is taken over. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('binding_jobs_user_idx').on(t.userId, t.status), index('binding_jobs_finished_idx').on(t.finishedAt)],
);
