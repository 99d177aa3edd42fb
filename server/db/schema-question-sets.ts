/**
 * 题目合集 (question sets): a teacher's named selection of questions of one subject, filed under a
 * school year and optionally a chapter and a knowledge point, which they may share to 校本资料. Items point at questions of the
 * shared bank or of the school's own; deleting a school question takes it out of every set.
 */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { classes, orgs, subjects, users } from './schema-accounts';
import { chapters, knowledgePoints, questions } from './schema-papers';

const stamp = (name: string) =>
  timestamp(name, { withTimezone: true })
    .notNull()
    .default(sql`now()`);

export const questionSets = pgTable(
  'question_sets',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'restrict' }),
    /** A class tree node of type 1. */
    schoolYearId: integer('school_year_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'restrict' }),
    chapterId: integer('chapter_id').references((): AnyPgColumn => chapters.id, { onDelete: 'set null' }),
    /** Optional, like the chapter: the knowledge point the set practises (校本资料 filters by it). */
    knowledgePointId: integer('knowledge_point_id').references((): AnyPgColumn => knowledgePoints.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: stamp('created_at'),
    updatedAt: stamp('updated_at'),
    /** When it was shared to 校本资料 (null: only its owner and the school's admins see it). */
    sharedAt: timestamp('shared_at', { withTimezone: true }),
  },
  (t) => [index('question_sets_org_idx').on(t.orgId, t.sharedAt), index('question_sets_owner_idx').on(t.createdBy)],
);

export const questionSetItems = pgTable(
  'question_set_items',
  {
    setId: integer('set_id')
      .notNull()
      .references(() => questionSets.id, { onDelete: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.questionId] }), index('question_set_items_question_idx').on(t.questionId)],
);
