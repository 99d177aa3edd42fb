/**
 * Per-student papers of a homework (personalised re-practice sets, 举一反三): a student listed here
 * answers their own paper, printed on their own answer sheet (the template laid out when the set was
 * made), and recognition and marking read that student's sheet with it. A homework without rows is an
 * ordinary homework: every student answers the homework's paper.
 */
import { index, integer, jsonb, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import type { AnswerSheetTemplate } from '../../src/shared/contract/answer-sheet';
import { orgs } from './schema-accounts';
import { homework, papers, students } from './schema-papers';

export const homeworkStudentPapers = pgTable(
  'homework_student_papers',
  {
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    paperId: integer('paper_id')
      .notNull()
      .references(() => papers.id, { onDelete: 'restrict' }),
    template: jsonb('template').$type<AnswerSheetTemplate>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.homeworkId, t.studentId] }), index('homework_student_papers_paper_idx').on(t.paperId)],
);
