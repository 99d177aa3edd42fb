/**
 * Wall-mounted large screens (大屏): a paired screen holds a read-only display token (stored hashed)
 * scoped to a school, a school year or a class; a pairing is the short-lived code a new screen shows.
 * Part of the schema root (schema.ts).
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { classes, orgs, users } from './schema-accounts';

export const screens = pgTable(
  'screens',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** school | schoolYear | class */
    scopeKind: text('scope_kind').notNull(),
    schoolYearId: integer('school_year_id').references(() => classes.id, { onDelete: 'cascade' }),
    classId: integer('class_id').references(() => classes.id, { onDelete: 'cascade' }),
    /** The panels it rotates through (SCREEN_PANELS). */
    panels: jsonb('panels').$type<string[]>().notNull().default([]),
    /** Student names and ranks may be shown (only where the school year allows it). */
    showNames: boolean('show_names').notNull().default(false),
    /** sha256 of the display token; null until the screen collects it. */
    tokenHash: text('token_hash').unique(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (t) => [index('screens_org_idx').on(t.orgId)],
);

export const screenPairings = pgTable(
  'screen_pairings',
  {
    id: serial('id').primaryKey(),
    /** The code shown on the screen and typed in the portal. */
    code: text('code').notNull(),
    /** sha256 of the secret only the screen that asked for the code holds (it collects the token with it). */
    secretHash: text('secret_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when a teacher paired it; the screen's next collect receives the display token. */
    screenId: integer('screen_id').references(() => screens.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [index('screen_pairings_code_idx').on(t.code)],
);
