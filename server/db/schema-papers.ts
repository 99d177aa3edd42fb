/**
 * Tables of the question bank (题库), papers (试卷), homework (作业), students (学生) and the printed
 * answer-sheet templates. Rows with `org_id` null in chapters, knowledge points and questions form the
 * shared bank every school reads; rows with an `org_id` belong to that school only.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  date,
  doublePrecision,
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
// schema.ts re-exports this file; the references below are lazy callbacks, so the cycle is harmless.
import { classes, orgs, subjects, users } from './schema-accounts';

const createdAt = () =>
  timestamp('created_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`);

/** Textbook chapters (章节); `type` is the chapter type, `booknode` for textbook chapters. */
export const chapters = pgTable(
  'chapters',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').references(() => orgs.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'cascade' }),
    pid: integer('pid').references((): AnyPgColumn => chapters.id, { onDelete: 'cascade' }),
    type: text('type').notNull().default('booknode'),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('chapters_subject_idx').on(t.subjectId, t.orgId)],
);

/** Knowledge points (知识点), a tree per subject. */
export const knowledgePoints = pgTable(
  'knowledge_points',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').references(() => orgs.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'cascade' }),
    pid: integer('pid').references((): AnyPgColumn => knowledgePoints.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('knowledge_points_subject_idx').on(t.subjectId, t.orgId)],
);

export const questions = pgTable(
  'questions',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').references(() => orgs.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => subjects.id, { onDelete: 'cascade' }),
    /** single | multiple | judge | blank | subjective */
    type: text('type').notNull(),
    stem: text('stem').notNull(),
    options: jsonb('options').$type<string[]>().notNull().default([]),
    answer: jsonb('answer').$type<string[]>().notNull(),
    analysis: text('analysis').notNull().default(''),
    /** 1 (容易) .. 5 (困难) */
    difficulty: integer('difficulty').notNull(),
    source: text('source').notNull().default(''),
    /** How many papers use the question; kept up to date when papers are saved or deleted. */
    usageCount: integer('usage_count').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('questions_subject_idx').on(t.subjectId, t.type, t.difficulty), index('questions_org_idx').on(t.orgId)],
);

export const questionChapters = pgTable(
  'question_chapters',
  {
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    chapterId: integer('chapter_id')
      .notNull()
      .references(() => chapters.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.chapterId] }), index('question_chapters_chapter_idx').on(t.chapterId)],
);

export const questionKnowledgePoints = pgTable(
  'question_knowledge_points',
  {
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    knowledgePointId: integer('knowledge_point_id')
      .notNull()
      .references(() => knowledgePoints.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.knowledgePointId] }),
    index('question_knowledge_points_kp_idx').on(t.knowledgePointId),
  ],
);

export const papers = pgTable(
  'papers',
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
    title: text('title').notNull(),
    /** A4 | A3 */
    paperSize: text('paper_size').notNull().default('A4'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** When its owner shared it to 校本资料 (null: not shared). */
    sharedAt: timestamp('shared_at', { withTimezone: true }),
    /** The chapter it is filed under in 校本资料. */
    sharedChapterId: integer('shared_chapter_id').references(() => chapters.id, { onDelete: 'set null' }),
  },
  (t) => [index('papers_org_idx').on(t.orgId), index('papers_shared_idx').on(t.orgId, t.sharedAt)],
);

export const paperSections = pgTable(
  'paper_sections',
  {
    id: serial('id').primaryKey(),
    paperId: integer('paper_id')
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull(),
    title: text('title').notNull(),
  },
  (t) => [index('paper_sections_paper_idx').on(t.paperId)],
);

export const paperQuestions = pgTable(
  'paper_questions',
  {
    id: serial('id').primaryKey(),
    paperId: integer('paper_id')
      .notNull()
      .references(() => papers.id, { onDelete: 'cascade' }),
    sectionId: integer('section_id')
      .notNull()
      .references(() => paperSections.id, { onDelete: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'restrict' }),
    /** The question number on the paper, 1-based across sections. */
    no: integer('no').notNull(),
    score: doublePrecision('score').notNull(),
  },
  (t) => [
    uniqueIndex('paper_questions_paper_no_idx').on(t.paperId, t.no),
    index('paper_questions_question_idx').on(t.questionId),
  ],
);

export const homework = pgTable(
  'homework',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    paperId: integer('paper_id')
      .notNull()
      .references(() => papers.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    /** draft | assigned | scanning | marking | finished */
    status: text('status').notNull().default('draft'),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('homework_org_idx').on(t.orgId, t.createdAt)],
);

export const homeworkClasses = pgTable(
  'homework_classes',
  {
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    /** The class's name when the homework was set, kept once its school year is promoted (null: its name now). */
    className: text('class_name'),
  },
  (t) => [primaryKey({ columns: [t.homeworkId, t.classId] }), index('homework_classes_class_idx').on(t.classId)],
);

export const students = pgTable(
  'students',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 学号, printed on barcodes and answer sheets; unique within the school. */
    code: text('code').notNull(),
    /** Archived (left the school): kept with their history, left off rosters and answer sheets. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('students_org_code_idx').on(t.orgId, t.code), index('students_class_idx').on(t.classId)],
);

/** The answer-sheet geometry as first printed for a homework; recognition reads exactly this version. */
export const answerSheetTemplates = pgTable(
  'answer_sheet_templates',
  {
    id: serial('id').primaryKey(),
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    template: jsonb('template').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('answer_sheet_templates_homework_version_idx').on(t.homeworkId, t.version)],
);

/**
 * Answer sheets printed (打印答题卡): one row per PDF a teacher downloaded or opened to print. Per-student
 * sheets are counted for their class; a generic sheet (通用答题卡) is one master copy, for a class when
 * one was named, copied by hand (so its sheet count is the master's, not the copies').
 */
export const answerSheetPrints = pgTable(
  'answer_sheet_prints',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    homeworkId: integer('homework_id')
      .notNull()
      .references(() => homework.id, { onDelete: 'cascade' }),
    classId: integer('class_id').references(() => classes.id, { onDelete: 'cascade' }),
    /** student (one sheet per student of the class) | class (通用答题卡) */
    mode: text('mode').notNull(),
    /** Sheets in the PDF. */
    sheets: integer('sheets').notNull(),
    printedBy: integer('printed_by').references(() => users.id, { onDelete: 'set null' }),
    printedAt: timestamp('printed_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [index('answer_sheet_prints_homework_idx').on(t.homeworkId, t.printedAt)],
);
