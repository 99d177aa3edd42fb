/**
 * Personalised re-practice sets (举一反三) and the class's common wrong questions, as made from /rehearse:
 * the options a teacher chooses, the preview (each student's questions with why each was picked), the
 * set made into a homework, and its print. Shared by the set maker and the server.
 */
import { z } from 'zod';
import { answerSheetSpecSchema } from './answer-sheet';
import { dateSchema, formIdSchema, idSchema, text } from './primitives';

export const REHEARSE_SET_KINDS = ['personal', 'class'] as const;
export const rehearseSetKindSchema = z.enum(REHEARSE_SET_KINDS);
export type RehearseSetKindName = z.infer<typeof rehearseSetKindSchema>;

/**
 * A question of a re-practice set keeps its own points: a wrong question its full score in the homework
 * it went wrong in, another its latest score in one of the school's papers, else the points of the
 * question it practises; a question never scored anywhere takes the bank's usual points for its type.
 */
export const REHEARSE_DEFAULT_SCORES: Record<string, number> = { single: 3, multiple: 4, judge: 3, blank: 3, subjective: 8 };

export const setSwapSchema = z.object({
  studentId: idSchema,
  position: z.number().int().min(1).max(20),
  questionId: idSchema,
});
export type SetSwap = z.infer<typeof setSwapSchema>;

export const setOptionsSchema = z.object({
  schoolYearId: idSchema,
  subjectId: idSchema,
  classIds: z.array(idSchema).min(1, '请选择班级').max(20),
  /** Only these students of the classes (personal sets); all of them when absent. */
  studentIds: z.array(idSchema).max(2000).optional(),
  kind: rehearseSetKindSchema.default('personal'),
  /** Own wrong questions per student (personal sets). */
  count: z.number().int().min(1, '错题数至少为 1').max(10, '错题数最多为 10').default(3),
  order: z.enum(['recent', 'most']).default('recent'),
  /** Similar questions (同类题) per wrong question. */
  similarPerQuestion: z.number().int().min(0).max(3).default(1),
  /** The class set takes questions whose 得分率 is below this line, in percent. */
  linePercent: z.number().int().min(1, '重练线应在 1% 到 100% 之间').max(100, '重练线应在 1% 到 100% 之间').default(60),
  seed: z.number().int().min(0).max(2_147_483_647).default(1),
  /** Swapped questions of the preview. */
  swaps: z.array(setSwapSchema).max(2000).default([]),
});
export type SetOptions = z.input<typeof setOptionsSchema>;

export const setReasonSchema = z.object({
  knowledgePoints: z.array(z.string()),
  type: z.string(),
  difficulty: z.number(),
  originDifficulty: z.number(),
  originRate: z.number().nullable(),
  pickRate: z.number().nullable(),
  neverSeen: z.boolean(),
  timesWrong: z.number(),
  chosenLabels: z.array(z.string()).nullable(),
  /**
   * A similar pick for a wrong choice question: coError when the school's students who chose the same
   * option on the original got this question wrong more often than the others; noData without such data
   * (notStored: sets made before the co-error preference).
   */
  distractor: z.enum(['coError', 'noData', 'notStored']).nullable(),
  noSimilar: z.boolean(),
  /** The reason in one Chinese sentence, as printed on the cover and shown in the preview. */
  text: z.string(),
});
export type SetReason = z.infer<typeof setReasonSchema>;

export const setItemSchema = z.object({
  position: z.number().int(),
  questionId: z.number().int(),
  originQuestionId: z.number().int(),
  kind: z.enum(['own', 'similar', 'class']),
  reason: setReasonSchema,
  alternatives: z.array(z.number().int()),
  /** The question's own points on this student's paper (see REHEARSE_DEFAULT_SCORES). */
  score: z.number(),
});
export type SetItem = z.infer<typeof setItemSchema>;

export const setQuestionSchema = z.object({
  id: z.number().int(),
  type: z.string(),
  difficulty: z.number().int(),
  /** The stem as plain text (formulas written out). */
  stem: z.string(),
  /** Choice questions' options, as plain text. */
  options: z.array(z.string()),
  knowledgePoints: z.array(z.string()),
});
export type SetQuestion = z.infer<typeof setQuestionSchema>;

export const setStudentSchema = z.object({
  studentId: z.number().int(),
  name: z.string(),
  code: z.string(),
  classId: z.number().int(),
  className: z.string(),
  /** Wrong questions still to redo in the book (not 已掌握). */
  wrongCount: z.number().int(),
  items: z.array(setItemSchema),
});
export type SetStudent = z.infer<typeof setStudentSchema>;

export const setPreviewSchema = z.object({
  kind: rehearseSetKindSchema,
  students: z.array(setStudentSchema),
  /** The class set's questions (every student the same); empty for personal sets. */
  classItems: z.array(setItemSchema),
  questions: z.array(setQuestionSchema),
});
export type SetPreview = z.infer<typeof setPreviewSchema>;

export const setCreateSchema = setOptionsSchema.extend({
  title: text().trim().min(1, '请输入标题').max(60, '标题最多 60 个字'),
  startDate: dateSchema,
  dueDate: dateSchema,
});
export type SetCreate = z.input<typeof setCreateSchema>;

export const setCreatedSchema = z.object({
  setId: z.number().int(),
  homeworkId: z.number().int(),
  kind: rehearseSetKindSchema,
  classes: z.array(z.object({ id: z.number().int(), name: z.string(), students: z.number().int() })),
  students: z.number().int(),
  questions: z.number().int(),
});
export type SetCreated = z.infer<typeof setCreatedSchema>;

export const setPdfParamsSchema = z.object({ id: formIdSchema });
/** A key the client picks to follow the making of one PDF (GET /rehearse/sets/pdf-progress/:key). */
export const pdfProgressKeySchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, '进度标识格式不正确');

export const setPdfQuerySchema = z.object({
  classId: formIdSchema.optional(),
  studentId: formIdSchema.optional(),
  progress: pdfProgressKeySchema.optional(),
  /**
   * One print job for both sets of the same data: a personal set and a class (common) set of the same
   * subject and classes; the class set's papers and sheets come first, the cover lists both.
   */
  with: formIdSchema.optional(),
});
export type SetPdfQuery = z.infer<typeof setPdfQuerySchema>;

export const pdfProgressParamsSchema = z.object({ key: pdfProgressKeySchema });

/** How far the making of a set's PDF is: students laid out of all, then saving the file, then done. */
export const pdfProgressSchema = z.object({
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  stage: z.enum(['students', 'saving', 'done']),
});
export type PdfProgress = z.infer<typeof pdfProgressSchema>;

/** The per-student answer sheets of a homework (personalised sets), for the simulated scanner. */
export const studentSheetSpecsSchema = z.object({
  sheets: z.array(
    z.object({
      studentCode: z.string(),
      spec: answerSheetSpecSchema,
      /** With ?keys=1: the key's sheet labels per objective question number (the simulated scanner's 按答案作答). */
      keys: z.record(z.string(), z.array(z.string())).optional(),
    }),
  ),
});
export const studentSheetSpecsQuerySchema = z.object({ keys: z.literal('1').optional() }).strict();
export type StudentSheetSpecs = z.infer<typeof studentSheetSpecsSchema>;

export const SET_MESSAGES = {
  notVisible: '很抱歉，您暂无该操作权限',
  noStudents: '所选班级没有学生',
  noQuestions: '没有可重练的错题',
  studentNotInClasses: '学生不在所选班级中',
  dates: '截止日期不能早于开始日期',
  combine: '只能把同一学科、同一班级的班级共性错题和个人举一反三合并打印',
} as const;

export const QUESTION_TYPE_NAMES: Record<string, string> = {
  single: '单选题',
  multiple: '多选题',
  judge: '判断题',
  blank: '填空题',
  subjective: '解答题',
};
export const DIFFICULTY_NAMES = ['', '容易', '较易', '中等', '较难', '困难'];
