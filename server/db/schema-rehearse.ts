/**
 * Tables of wrong-question re-practice (错题重练): the wrong-question book (错题本, one row per student
 * and question the student got wrong, kept true by server/services/rehearse/wrong-book.service.ts from
 * question_scores), the re-practice sets and their items (a set becomes a homework; an item with an
 * origin question is a redo of that origin), the class's queue for the next set (加入错题重练 on the
 * commentary page) and each school's re-practice settings (its list of error causes, the line under
 * which a hand-marked question counts as wrong). Error causes themselves are a column of marking_tasks
 * (given on /write) and question_scores (the final one). Every table carries org_id.
 */
import { sql } from 'drizzle-orm';
import { date, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { classes, orgs, subjects, users } from './schema-accounts';
import { homework, questions, students } from './schema-papers';

/** 待重练 / 重练对 1 / 重练对 2 / 已掌握 */
export type MasteryState = 'pending' | 'redo1' | 'redo2' | 'mastered';
/** personal: one paper per student; class: the class's common wrong questions for everyone. */
export type RehearseSetKind = 'personal' | 'class';

/** One student's wrong question: derived from question_scores, never written by hand (see the service). */
export const wrongQuestions = pgTable(
  'wrong_questions',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'cascade' }),
    /** The day of the first and of the latest homework (its start date) the question was wrong in. */
    firstWrongOn: date('first_wrong_on', { mode: 'string' }).notNull(),
    lastWrongOn: date('last_wrong_on', { mode: 'string' }).notNull(),
    /** Every homework it was wrong in, oldest first (first attempts and wrong redos). */
    homeworkIds: jsonb('homework_ids').$type<number[]>().notNull().default([]),
    /** The latest wrong attempt: (homework, student, question no.) is its question_scores row. */
    lastHomeworkId: integer('last_homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    lastQuestionNo: integer('last_question_no').notNull(),
    /** The question actually answered in the latest wrong attempt (a similar question for a redo). */
    lastAnsweredQuestionId: integer('last_answered_question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    lastScore: doublePrecision('last_score').notNull(),
    fullScore: doublePrecision('full_score').notNull(),
    timesWrong: integer('times_wrong').notNull(),
    /** Redos scored so far (right or wrong). */
    redoCount: integer('redo_count').notNull().default(0),
    mastery: text('mastery').$type<MasteryState>().notNull().default('pending'),
    /** The re-practice homework of the last right redo (a further step needs a later one). */
    lastRedoHomeworkId: integer('last_redo_homework_id').references(() => homework.id, { onDelete: 'set null' }),
    /** The error cause of the latest wrong attempt (from question_scores.error_cause). */
    errorCause: text('error_cause'),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    uniqueIndex('wrong_questions_student_question_idx').on(t.studentId, t.questionId),
    index('wrong_questions_org_subject_idx').on(t.orgId, t.subjectId, t.mastery),
    index('wrong_questions_question_idx').on(t.questionId),
  ],
);

/** A re-practice set a teacher made; it becomes one homework (homework_id). */
export const rehearseSets = pgTable(
  'rehearse_sets',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'cascade' }),
    schoolYearId: integer('school_year_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    classIds: jsonb('class_ids').$type<number[]>().notNull().default([]),
    kind: text('kind').$type<RehearseSetKind>().notNull(),
    /** The homework it became; null while still a draft. */
    homeworkId: integer('homework_id').references(() => homework.id, { onDelete: 'set null' }),
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [index('rehearse_sets_org_idx').on(t.orgId, t.createdAt), uniqueIndex('rehearse_sets_homework_idx').on(t.homeworkId)],
);

/** One question of a set for one student (student_id null: for every student of the set's classes). */
export const rehearseSetItems = pgTable(
  'rehearse_set_items',
  {
    id: serial('id').primaryKey(),
    setId: integer('set_id')
      .notNull()
      .references(() => rehearseSets.id, { onDelete: 'cascade' }),
    homeworkId: integer('homework_id').references(() => homework.id, { onDelete: 'cascade' }),
    studentId: integer('student_id').references(() => students.id, { onDelete: 'cascade' }),
    /** The question number on the student's sheet (question_scores.question_no), 1-based. */
    position: integer('position').notNull(),
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    /** Its full score on the student's sheet; null: the paper's score at that number. */
    score: doublePrecision('score'),
    /** The wrong question this item practises: answering it is a redo of that question. */
    originQuestionId: integer('origin_question_id').references(() => questions.id, { onDelete: 'set null' }),
    /** Why it was picked (knowledge point, type, score rates, never seen before ...). */
    reason: jsonb('reason').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('rehearse_set_items_set_idx').on(t.setId, t.studentId, t.position),
    index('rehearse_set_items_homework_idx').on(t.homeworkId, t.studentId),
  ],
);

/** 加入错题重练: a question waiting for the class's next set; set_id once a set took it. */
export const rehearseQueue = pgTable(
  'rehearse_queue',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    /** The homework the teacher was commenting on, if any. */
    homeworkId: integer('homework_id').references(() => homework.id, { onDelete: 'set null' }),
    addedBy: integer('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    setId: integer('set_id').references(() => rehearseSets.id, { onDelete: 'set null' }),
  },
  (t) => [
    // Queued once per class and question until a set takes it.
    uniqueIndex('rehearse_queue_waiting_idx')
      .on(t.classId, t.subjectId, t.questionId)
      .where(sql`set_id is null`),
  ],
);

/** Per school: the error causes offered on /write and the line for hand-marked questions. */
export const rehearseSettings = pgTable('rehearse_settings', {
  orgId: integer('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  errorCauses: jsonb('error_causes').$type<string[]>().notNull(),
  /** A hand-marked question is wrong below this share of its full score, in percent (100: below full). */
  subjectiveWrongPercent: integer('subjective_wrong_percent').notNull().default(100),
});
