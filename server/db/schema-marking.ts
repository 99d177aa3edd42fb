/**
 * Tables of recognition (识别) and marking (阅卷): what the engine read off each scanned page, the answers
 * (student × question of a homework) built from it, the review queue (异常卷) of everything a person must
 * decide, the marking setup (who marks which question, double marking), the marking tasks and their
 * scores, and the final score of each student per question: the single source for everything later.
 * The recognition queue itself is scan_pages.status ('stored' = waiting); page_recognitions holds its
 * lease and the outcome. Every table carries org_id and every query filters on it.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { Annotation } from '../../src/shared/contract/marking';
import type { ObjectiveReading, PageReading } from '../../src/shared/contract/recognition';
import { classes, orgs, users } from './schema-accounts';
import { homework, students } from './schema-papers';
import { scanBatches, scanPages } from './schema-scan';

const createdAt = () =>
  timestamp('created_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`);

/** Where a cut-out answer region was stored (file storage key). */
export type StoredRegion = { questionNo: number; kind: 'blank' | 'subjective'; path: string };

/**
 * One row per scanned page that the queue has taken up: its lease while being recognised, the reading,
 * and what the server resolved (homework, sheet page, student). `forced_*` are a reviewer's decisions,
 * which win over the QR code when the page is read again.
 */
export const pageRecognitions = pgTable(
  'page_recognitions',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    scanPageId: integer('scan_page_id')
      .notNull()
      .unique()
      .references(() => scanPages.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id').notNull(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => scanBatches.id, { onDelete: 'cascade' }),
    /** The homework the page counts for; null while unknown (QR batch, unreadable QR). */
    homeworkId: integer('homework_id').references(() => homework.id, { onDelete: 'cascade' }),
    /** Page of the answer sheet (1-based). */
    pageNo: integer('page_no'),
    studentId: integer('student_id').references(() => students.id, { onDelete: 'set null' }),
    reading: jsonb('reading').$type<PageReading>(),
    /** The homework whose template the engine read the page with. */
    templateHomeworkId: integer('template_homework_id').references(() => homework.id, { onDelete: 'set null' }),
    regions: jsonb('regions').$type<StoredRegion[]>().notNull().default([]),
    /** The page's answers were written into `answers` (it counts for scores). */
    applied: boolean('applied').notNull().default(false),
    forcedHomeworkId: integer('forced_homework_id').references(() => homework.id, { onDelete: 'set null' }),
    forcedStudentId: integer('forced_student_id').references(() => students.id, { onDelete: 'set null' }),
    forcedPageNo: integer('forced_page_no'),
    /** While recognising: when another worker may take the page over (its holder is presumed dead). */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Identifies the current claim, so a worker that lost its lease cannot write a stale result. */
    claimToken: text('claim_token'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    recognisedAt: timestamp('recognised_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('page_recognitions_homework_idx').on(t.homeworkId, t.studentId, t.pageNo),
    index('page_recognitions_batch_idx').on(t.batchId),
  ],
);

/** The answer of one student to one question of a homework, as read (objective) or cut out (manual). */
export const answers = pgTable(
  'answers',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    questionNo: integer('question_no').notNull(),
    /** The page it was read from; null for a page accepted as missing. */
    recognitionId: integer('recognition_id').references(() => pageRecognitions.id, { onDelete: 'set null' }),
    /** Objective questions: the option labels taken as the answer (A–H, T/F). */
    labels: jsonb('labels').$type<string[]>(),
    /** Manual questions: the cut-out region image (file storage key). */
    regionPath: text('region_path'),
    /** Held back from scores by an open review item on this question. */
    needsReview: boolean('needs_review').notNull().default(false),
    /** The student's page is missing and a reviewer accepted that: scored 0 without marking. */
    missing: boolean('missing').notNull().default(false),
    /** Objective questions: the score from the answer key. */
    autoScore: doublePrecision('auto_score'),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('answers_homework_student_question_idx').on(t.homeworkId, t.studentId, t.questionNo),
    index('answers_homework_question_idx').on(t.homeworkId, t.questionNo),
    index('answers_recognition_idx').on(t.recognitionId),
    index('answers_org_homework_idx').on(t.orgId, t.homeworkId, t.studentId),
  ],
);

/** One thing a person must decide (异常卷); never enters scores until resolved. */
export const reviewItems = pgTable(
  'review_items',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** Null while the page's homework is unknown; listed under the homework of its batch's other pages. */
    homeworkId: integer('homework_id').references(() => homework.id, { onDelete: 'cascade' }),
    recognitionId: integer('recognition_id')
      .notNull()
      .references(() => pageRecognitions.id, { onDelete: 'cascade' }),
    /** RecognitionProblemKind */
    kind: text('kind').notNull(),
    /** open | resolved */
    status: text('status').notNull().default('open'),
    pageNo: integer('page_no'),
    questionNo: integer('question_no'),
    studentId: integer('student_id').references(() => students.id, { onDelete: 'set null' }),
    reading: jsonb('reading').$type<ObjectiveReading>(),
    /** setAnswer: the labels the reviewer read, which replace the reading's. */
    answerLabels: jsonb('answer_labels').$type<string[]>(),
    detail: text('detail'),
    /** How it was resolved (Chinese, shown in the list). */
    resolution: text('resolution'),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('review_items_homework_idx').on(t.homeworkId, t.status),
    index('review_items_recognition_idx').on(t.recognitionId),
    // A missing page is reported once per student and page, however often the queue drains.
    uniqueIndex('review_items_missing_page_idx')
      .on(t.homeworkId, t.studentId, t.pageNo)
      .where(sql`kind = 'missingPage'`),
  ],
);

/** Marking options of a homework as a whole. */
export const markingHomeworkSettings = pgTable('marking_homework_settings', {
  homeworkId: integer('homework_id')
    .primaryKey()
    .references(() => homework.id, { onDelete: 'cascade' }),
  orgId: integer('org_id')
    .notNull()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  /** Multiple choice: the share of the score for a correct, incomplete answer. */
  partialCredit: doublePrecision('partial_credit').notNull(),
});

/** Per manual question: double marking (双评) and its tolerance. */
export const markingQuestionSettings = pgTable(
  'marking_question_settings',
  {
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    questionNo: integer('question_no').notNull(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    doubleMarking: boolean('double_marking').notNull().default(false),
    tolerance: doublePrecision('tolerance').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.homeworkId, t.questionNo] })],
);

/** Who marks which question (assigned by the homework's owner). */
export const markingAssignments = pgTable(
  'marking_assignments',
  {
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    questionNo: integer('question_no').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.homeworkId, t.questionNo, t.userId] }), index('marking_assignments_user_idx').on(t.userId)],
);

/**
 * One marking of one answer: round 1 (and 2 with double marking), 3 the third marking, 4 the owner's
 * arbitration. A marker claims a task until `claim_expires_at`; once scored, only its marker changes it.
 */
export const markingTasks = pgTable(
  'marking_tasks',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    answerId: integer('answer_id')
      .notNull()
      .references(() => answers.id, { onDelete: 'cascade' }),
    questionNo: integer('question_no').notNull(),
    /** The answer's student (migration 0021: filled from the answer when not given), for 阅卷统计. */
    studentId: integer('student_id'),
    round: integer('round').notNull(),
    /**
     * Scanned 按学科分配: the class whose subject teachers (of the paper's subject) mark this answer;
     * null: the question's markers.
     */
    classId: integer('class_id').references(() => classes.id, { onDelete: 'set null' }),
    claimedBy: integer('claimed_by').references(() => users.id, { onDelete: 'set null' }),
    claimExpiresAt: timestamp('claim_expires_at', { withTimezone: true }),
    markerId: integer('marker_id').references(() => users.id, { onDelete: 'set null' }),
    score: doublePrecision('score'),
    annotations: jsonb('annotations').$type<Annotation[]>().notNull().default([]),
    problem: boolean('problem').notNull().default(false),
    /** Why the answer lost marks (one of the school's error causes), given with the score on /write. */
    errorCause: text('error_cause'),
    scoredAt: timestamp('scored_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('marking_tasks_answer_round_idx').on(t.answerId, t.round),
    index('marking_tasks_question_idx').on(t.homeworkId, t.questionNo, t.round),
    index('marking_tasks_marker_idx').on(t.markerId, t.homeworkId, t.questionNo),
    // 阅卷统计 reads the tasks scored in an hour from this index alone (migration 0021).
    index('marking_tasks_scored_idx')
      .on(t.orgId, t.homeworkId, t.scoredAt, t.studentId)
      .where(sql`scored_at is not null`),
  ],
);

/** The final score of a student for a question: from the answer key, from marking, or 0 for a missing page. */
export const questionScores = pgTable(
  'question_scores',
  {
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    questionNo: integer('question_no').notNull(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    answerId: integer('answer_id')
      .notNull()
      .references(() => answers.id, { onDelete: 'cascade' }),
    score: doublePrecision('score').notNull(),
    /** auto | marked | missing */
    source: text('source').notNull(),
    /** The error cause: from the deciding marking task, or set in the wrong-question book. */
    errorCause: text('error_cause'),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.homeworkId, t.studentId, t.questionNo] }),
    index('question_scores_org_homework_idx').on(t.orgId, t.homeworkId),
  ],
);

/** A student of a homework's classes the teacher marked absent (缺考): not scanned, not scored, not missing. */
export const homeworkAbsences = pgTable(
  'homework_absences',
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
    markedBy: integer('marked_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.homeworkId, t.studentId] }),
    index('homework_absences_org_homework_idx').on(t.orgId, t.homeworkId),
  ],
);

/** The owner declared the homework finished (已完成) whatever is still missing; removing the row reopens it. */
export const homeworkClosures = pgTable('homework_closures', {
  homeworkId: integer('homework_id')
    .primaryKey()
    .references(() => homework.id, { onDelete: 'cascade' }),
  orgId: integer('org_id')
    .notNull()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  closedBy: integer('closed_by').references(() => users.id, { onDelete: 'set null' }),
  closedAt: timestamp('closed_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});

/**
 * Analysis pre-aggregates (migration 0020): kept by database triggers on answers, question_scores and
 * students in the same transaction as every write, never written by the application. See the migration
 * for how they stay correct when a score changes.
 */
export const homeworkStudentTotals = pgTable(
  'homework_student_totals',
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
    /** Answers counted for the student in the homework. */
    answerCount: integer('answer_count').notNull().default(0),
    /** Final scores (question_scores rows) among them. */
    scoreCount: integer('score_count').notNull().default(0),
    /** Sum of the final scores. */
    total: numeric('total', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'homework_student_totals_pk', columns: [t.homeworkId, t.studentId] }),
    index('homework_student_totals_org_homework_idx').on(t.orgId, t.homeworkId),
  ],
);

/** Per homework, class (the student's) and question: the number of final scores, their sum and sum of squares. */
export const homeworkClassQuestionTotals = pgTable(
  'homework_class_question_totals',
  {
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    questionNo: integer('question_no').notNull(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    scoreCount: integer('score_count').notNull().default(0),
    total: numeric('total', { mode: 'number' }).notNull().default(0),
    /** Sum of the squared scores (item variance for the reliability). */
    totalSquares: numeric('total_squares', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'homework_class_question_totals_pk', columns: [t.homeworkId, t.classId, t.questionNo] }),
    index('homework_class_question_totals_org_homework_idx').on(t.orgId, t.homeworkId),
  ],
);

/**
 * Per homework, class (the student's) and clock hour (hours since the epoch): the number of scored marking
 * tasks, kept by triggers (migration 0021) for 阅卷统计: counts, on-time counts and the hours holding the
 * median marking time without reading the tasks.
 */
export const markingTaskHours = pgTable(
  'marking_task_hours',
  {
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    hour: integer('hour').notNull(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    taskCount: integer('task_count').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'marking_task_hours_pk', columns: [t.homeworkId, t.classId, t.hour] }),
    index('marking_task_hours_org_homework_idx').on(t.orgId, t.homeworkId),
  ],
);
