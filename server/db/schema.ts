/**
 * The drizzle schema: the single description of our tables. Migrations under server/db/migrations are
 * generated from it with `npm run db:generate` and applied at start on PGlite and PostgreSQL alike.
 */
import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const orgs = pgTable('orgs', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  createdBy: integer('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});
