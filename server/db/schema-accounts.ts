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
  jsonb,
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

export const orgs = pgTable(
  'orgs',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
    region: text('region').notNull().default(''),
    /** 小学 | 初中 | 高中 | 完全中学 */
    schoolType: text('school_type').notNull().default('初中'),
    /** Relative path under the image base URL, e.g. logos/3f2a.png. */
    logo: text('logo'),
    /** The footer's filing number (备案号). */
    filingNumber: text('filing_number').notNull().default(''),
    /**
     * Score bands read by analysis, in percent of the full mark: 及格, 良好, 优秀 (>= line) and 低分
     * (< line). subject_rate_lines overrides them per school year and subject.
     */
    lowPercent: integer('low_percent').notNull().default(40),
    passPercent: integer('pass_percent').notNull().default(60),
    goodPercent: integer('good_percent').notNull().default(75),
    excellentPercent: integer('excellent_percent').notNull().default(85),
    /** 学校码: a teacher without a school enters it to ask to join (an admin approves). */
    joinCode: text('join_code')
      .notNull()
      .default(sql`upper(substr(md5(random()::text), 1, 8))`),
  },
  (t) => [uniqueIndex('orgs_join_code_idx').on(t.joinCode)],
);

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
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** School years: ranks and named score lists in analysis; null = the school type's default. */
    ranksEnabled: boolean('ranks_enabled'),
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
    archivedAt: timestamp('archived_at', { withTimezone: true }),
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
    /** True while the member directs at least one school year (grade_directors); the spec's flag. */
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

/** Subject teachers: who teaches which subject to which class. */
export const teachingAssignments = pgTable(
  'teaching_assignments',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('teaching_assignments_user_class_subject_idx').on(t.userId, t.classId, t.subjectId),
    index('teaching_assignments_org_idx').on(t.orgId),
  ],
);

/** Class teachers (班主任): at most one per class. */
export const classTeachers = pgTable(
  'class_teachers',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('class_teachers_class_idx').on(t.classId), index('class_teachers_org_idx').on(t.orgId)],
);

/** Grade directors (年级主任) of a school year. */
export const gradeDirectors = pgTable(
  'grade_directors',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    schoolYearId: integer('school_year_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('grade_directors_year_user_idx').on(t.schoolYearId, t.userId),
    index('grade_directors_org_idx').on(t.orgId),
  ],
);

/**
 * Invitations to join a school: a link (token) and a 6-digit code, with the role and teaching preset
 * the joiner gets, an expiry and a number of uses.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    token: text('token').notNull().unique(),
    code: text('code').notNull(),
    /** admin | teacher */
    role: text('role').notNull(),
    schoolYearId: integer('school_year_id').references(() => classes.id, { onDelete: 'set null' }),
    classIds: jsonb('class_ids').$type<number[]>().notNull().default([]),
    subjectIds: jsonb('subject_ids').$type<number[]>().notNull().default([]),
    maxUses: integer('max_uses').notNull(),
    usedCount: integer('used_count').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('invitations_org_idx').on(t.orgId), index('invitations_code_idx').on(t.code)],
);

/** Asking to join a school by its 学校码: pending until an admin approves or declines. */
export const joinRequests = pgTable(
  'join_requests',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** pending | approved | declined */
    status: text('status').notNull().default('pending'),
    createdAt: createdAt(),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('join_requests_pending_idx')
      .on(t.orgId, t.userId)
      .where(sql`status = 'pending'`),
  ],
);
