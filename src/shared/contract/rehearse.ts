/**
 * Contract of wrong-question re-practice (错题重练): the wrong-question book by class and by student, the
 * school's error causes, and 加入错题重练 (the class's next-set queue). Who may see which class is decided
 * by the server (the permission module's visibleScope), never by these filters.
 */
import { z } from 'zod';
import { dateSchema, formIdSchema, idSchema, text } from './primitives';

export const MASTERY_STATES = ['pending', 'redo1', 'redo2', 'mastered'] as const;
export type MasteryState = (typeof MASTERY_STATES)[number];
export const MASTERY_LABELS: Record<MasteryState, string> = {
  pending: '待重练',
  redo1: '重练对 1',
  redo2: '重练对 2',
  mastered: '已掌握',
};
/** The book's filter on mastery: still to practise (default), mastered, or everything. */
export const MASTERY_FILTERS = ['open', 'mastered', 'all'] as const;
export const MASTERY_FILTER_LABELS: Record<(typeof MASTERY_FILTERS)[number], string> = {
  open: '未掌握',
  mastered: '已掌握',
  all: '全部',
};
/** The label of answers whose error cause nobody gave. */
export const NO_CAUSE_LABEL = '未标注';
export const MAX_ERROR_CAUSES = 12;
export const MAX_CAUSE_LENGTH = 10;

const bookFilter = {
  subjectId: formIdSchema.optional(),
  knowledgePointId: formIdSchema.optional(),
  chapterId: formIdSchema.optional(),
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  /** At least this many times wrong. */
  minTimesWrong: z.coerce.number('次数必须是整数').int('次数必须是整数').min(1, '次数至少为 1').max(1000).optional(),
  mastery: z.enum(MASTERY_FILTERS).default('open'),
};
const checkRange = (value: { from?: string; to?: string }) => !value.from || !value.to || value.from <= value.to;
const RANGE_MESSAGE = { message: '开始日期不能晚于结束日期', path: ['from'] };

export const classBookQuerySchema = z
  .object({ classId: formIdSchema, ...bookFilter })
  .strict()
  .refine(checkRange, RANGE_MESSAGE);
export type ClassBookQuery = z.infer<typeof classBookQuerySchema>;

export const studentBookQuerySchema = z
  .object({ studentId: formIdSchema, ...bookFilter })
  .strict()
  .refine(checkRange, RANGE_MESSAGE);
export type StudentBookQuery = z.infer<typeof studentBookQuerySchema>;

const ref = z.object({ id: z.number(), name: z.string() });

export const rehearseOptionsSchema = z.object({
  schoolYears: z.array(ref),
  classes: z.array(ref.extend({ schoolYearId: z.number(), subjectIds: z.array(z.number()).nullable() })),
  subjects: z.array(ref),
  errorCauses: z.array(z.string()),
  subjectiveWrongPercent: z.number(),
  /** May change the school's causes and line (creator, admin). */
  canManage: z.boolean(),
});
export type RehearseOptions = z.infer<typeof rehearseOptionsSchema>;

const causeCountSchema = z.object({ cause: z.string(), count: z.number() });

export const classBookSchema = z.object({
  klass: ref,
  students: z.array(z.object({ id: z.number(), name: z.string(), code: z.string(), open: z.number(), mastered: z.number() })),
  /** The most-missed questions, most students first. */
  questions: z.array(
    z.object({
      questionId: z.number(),
      subjectId: z.number(),
      type: z.string(),
      stem: z.string(),
      knowledgePoints: z.array(z.string()),
      /** Students with the question in their book (under the filters). */
      missedBy: z.number(),
      open: z.number(),
      mastered: z.number(),
      timesWrong: z.number(),
      /** The class's 得分率 on it over first attempts (re-practice excluded); null without marks. */
      scoreRate: z.number().nullable(),
      /** Students with a mark on it (the denominator of the score rate). */
      attempts: z.number(),
      causes: z.array(causeCountSchema),
    }),
  ),
  /** Entries by error cause (未标注 for none). */
  causes: z.array(causeCountSchema),
  knowledgePoints: z.array(ref),
  chapters: z.array(ref),
});
export type ClassBook = z.infer<typeof classBookSchema>;

export const bookEntrySchema = z.object({
  id: z.number(),
  questionId: z.number(),
  subjectId: z.number(),
  type: z.string(),
  stem: z.string(),
  options: z.array(z.string()),
  key: z.array(z.string()),
  analysis: z.string(),
  knowledgePoints: z.array(z.string()),
  mastery: z.enum(MASTERY_STATES),
  timesWrong: z.number(),
  redoCount: z.number(),
  firstWrongOn: z.string(),
  lastWrongOn: z.string(),
  homework: ref,
  questionNo: z.number(),
  /** The question answered in that attempt when it was a similar question (a wrong redo). */
  answeredQuestionId: z.number(),
  score: z.number(),
  fullScore: z.number(),
  errorCause: z.string().nullable(),
  /** The student's answer: chosen options, or the answer image cut from the scan (answerId's image). */
  labels: z.array(z.string()).nullable(),
  answerId: z.number().nullable(),
  hasImage: z.boolean(),
});
export type BookEntry = z.infer<typeof bookEntrySchema>;

export const studentBookSchema = z.object({
  student: z.object({ id: z.number(), name: z.string(), code: z.string(), classId: z.number(), className: z.string() }),
  counts: z.object({ pending: z.number(), redo1: z.number(), redo2: z.number(), mastered: z.number() }),
  entries: z.array(bookEntrySchema),
  knowledgePoints: z.array(ref),
  chapters: z.array(ref),
});
export type StudentBook = z.infer<typeof studentBookSchema>;

export const causeText = () =>
  text().trim().min(1, '错因不能为空').max(MAX_CAUSE_LENGTH, `错因不能超过 ${MAX_CAUSE_LENGTH} 个字`);

export const setCauseBodySchema = z.object({ errorCause: causeText().nullable() }).strict();

export const rehearseSettingsBodySchema = z
  .object({
    errorCauses: z
      .array(causeText())
      .min(1, '至少保留一个错因')
      .max(MAX_ERROR_CAUSES, `错因最多 ${MAX_ERROR_CAUSES} 个`)
      .refine((list) => new Set(list).size === list.length, '错因不能重复'),
    subjectiveWrongPercent: z.number('请填写百分比').int('请填写整数').min(1, '最小为 1').max(100, '最大为 100'),
  })
  .strict();
export type RehearseSettingsBody = z.infer<typeof rehearseSettingsBodySchema>;
export const rehearseSettingsSchema = z.object({ errorCauses: z.array(z.string()), subjectiveWrongPercent: z.number() });

/** 加入错题重练 from the commentary: one question of a homework, for one class or every class of it. */
export const queueBodySchema = z.object({ homeworkId: idSchema, questionNo: idSchema, classId: idSchema.optional() }).strict();
export const queueResultSchema = z.object({ added: z.number(), already: z.number() });

export const queueQuerySchema = z.object({ classId: formIdSchema, subjectId: formIdSchema.optional() }).strict();
export const queueListSchema = z.array(
  z.object({
    id: z.number(),
    classId: z.number(),
    subjectId: z.number(),
    questionId: z.number(),
    homeworkId: z.number().nullable(),
    addedBy: z.number().nullable(),
    addedAt: z.string(),
    stem: z.string(),
  }),
);

/** The error causes of one homework's wrong answers per question (the commentary groups by them). */
export const homeworkCausesQuerySchema = z.object({ classId: formIdSchema.optional() }).strict();
export const homeworkCausesSchema = z.array(z.object({ questionNo: z.number(), causes: z.array(causeCountSchema) }));
