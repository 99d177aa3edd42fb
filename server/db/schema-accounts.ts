/**
 * Tables of schools, their school-year/class tree, users, memberships, tokens, captchas and SMS codes.
 * Part of the schema root (schema.ts).
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () =>
  timestamp('created_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`);

export const orgs = pgTable('orgs', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  createdBy: integer('created_by'),
  createdAt: createdAt(),
});

/** One tree per school: school years (type 1, pid null) and their classes (type 2, pid = school year). */
export const classes = pgTable(
  'classes',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    pid: integer('pid').references((): AnyPgColumn => classes.id, { onDelete: 'cascade' }),
    type: integer('type').notNull(),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('classes_org_type_pid_idx').on(t.orgId, t.type, t.pid)],
);

export const subjects = pgTable(
  'subjects',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('subjects_org_name_idx').on(t.orgId, t.name)],
);

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  nickname: text('nickname').notNull(),
  mobile: text('mobile').unique(),
  passwordHash: text('password_hash').notNull(),
  /** Relative path under the image base URL, e.g. avatars/3f2a.png. */
  avatar: text('avatar'),
  wechatBound: boolean('wechat_bound').notNull().default(false),
  defaultOrgId: integer('default_org_id').references(() => orgs.id, { onDelete: 'set null' }),
  // Wrong-password lockout: failures counted from failedLoginSince; lockedUntil set when too many.
  failedLoginCount: integer('failed_login_count').notNull().default(0),
  failedLoginSince: timestamp('failed_login_since', { withTimezone: true }),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  createdAt: createdAt(),
});

export const memberships = pgTable(
  'memberships',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** creator | admin | teacher */
    role: text('role').notNull(),
    gradeDirector: boolean('grade_director').notNull().default(false),
    subjectId: integer('subject_id').references(() => subjects.id, { onDelete: 'set null' }),
    /** The user's default school year (class tree node of type 1) in this org. */
    defaultClassId: integer('default_class_id').references(() => classes.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('memberships_org_user_idx').on(t.orgId, t.userId), index('memberships_user_idx').on(t.userId)],
);

/** A login session: every access/refresh token issued by rotation from one login shares its family. */
export const tokenFamilies = pgTable(
  'token_families',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('token_families_user_idx').on(t.userId)],
);

/** Opaque bearer and refresh tokens; only their SHA-256 hashes are stored. */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    id: serial('id').primaryKey(),
    familyId: text('family_id')
      .notNull()
      .references(() => tokenFamilies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** access | refresh */
    kind: text('kind').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when a refresh token is exchanged; a second use revokes the family. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oauth_tokens_family_idx').on(t.familyId)],
);

/** Image captchas: single use, answer stored as a SHA-256 hash of its upper-case text. */
export const captchas = pgTable('captchas', {
  key: text('key').primaryKey(),
  answerHash: text('answer_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** SMS codes: single use, a few attempts, answer stored as a SHA-256 hash. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: serial('id').primaryKey(),
    mobile: text('mobile').notNull(),
    /** login | register | reset | bind */
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sms_codes_mobile_idx').on(t.mobile, t.createdAt)],
);

/**
 * Wrong-password counters. One row per (account key, caller IP) locks that address out after a few
 * failures; the row with ip '*' counts every address together and locks the account after many. The
 * account key is `user:<id>` for a known account and `name:<login name>` for an unknown one, so both get
 * the same answers.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    loginKey: text('login_key').notNull(),
    ip: text('ip').notNull(),
    failures: integer('failures').notNull().default(0),
    since: timestamp('since', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.loginKey, t.ip] })],
);
