/**
 * 各学年学科分数线: a school's 优秀 / 良好 / 及格 / 低分 lines for one school year and subject, in percent
 * of the full mark (one decimal at most). They override the school's lines (orgs.*_percent) for the
 * homework of that school year and subject; analysis resolves them in analysis-scope.ts.
 */
import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { classes, orgs, subjects } from './schema-accounts';

const percent = (name: string) => numeric(name, { precision: 4, scale: 1, mode: 'number' }).notNull();

export const subjectRateLines = pgTable(
  'subject_rate_lines',
  {
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** A class tree node of type 1. */
    schoolYearId: integer('school_year_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'cascade' }),
    excellentPercent: percent('excellent_percent'),
    goodPercent: percent('good_percent'),
    passPercent: percent('pass_percent'),
    lowPercent: percent('low_percent'),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.schoolYearId, t.subjectId] }), index('subject_rate_lines_org_idx').on(t.orgId)],
);
