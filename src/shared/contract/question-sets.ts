/**
 * 题目合集 (question sets): a teacher's named selection of bank questions (the shared bank's or the
 * school's own), of one subject, filed under a school year and optionally a chapter and a knowledge
 * point, shared to 校本资料.
 * The owner and the school's admins change a set; colleagues read shared sets and copy them.
 * - GET    /api/question-sets             QuestionSetListQuery -> QuestionSetPage
 * - POST   /api/question-sets             QuestionSetCreate -> QuestionSetDetail
 * - GET    /api/question-sets/:id         -> QuestionSetDetail
 * - PUT    /api/question-sets/:id         QuestionSetInput -> QuestionSetDetail (owner, admins)
 * - DELETE /api/question-sets/:id         -> null (owner, admins)
 * - POST   /api/question-sets/:id/share   -> QuestionSetSummary (the owner only)
 * - DELETE /api/question-sets/:id/share   -> null (owner, admins)
 * - POST   /api/question-sets/:id/copy    -> QuestionSetDetail (a new, unshared set of the caller's)
 */
import { z } from 'zod';
import { idNameSchema, pageQuerySchema, pagedSchema, questionSchema } from './papers';
import { formIdSchema, idSchema, text } from './primitives';

/** Most questions one set holds. */
export const MAX_SET_QUESTIONS = 100;
export const MAX_SET_NAME = 40;
export const MAX_SET_DESCRIPTION = 200;

export const questionSetInputSchema = z.object({
  name: text().trim().min(1, '请输入合集名称').max(MAX_SET_NAME, `合集名称不能超过 ${MAX_SET_NAME} 个字`),
  subjectId: idSchema,
  schoolYearId: idSchema,
  chapterId: idSchema.nullable().default(null),
  /** Optional: the knowledge point of the set's subject it practises. */
  knowledgePointId: idSchema.nullable().default(null),
  description: text().trim().max(MAX_SET_DESCRIPTION, `说明不能超过 ${MAX_SET_DESCRIPTION} 个字`).default(''),
  /** The questions in order. */
  questionIds: z
    .array(idSchema)
    .min(1, '请至少选择一道题')
    .max(MAX_SET_QUESTIONS, `一个题目合集最多 ${MAX_SET_QUESTIONS} 道题`)
    .refine((ids) => new Set(ids).size === ids.length, '同一道题不能在合集中出现两次'),
});
export type QuestionSetInput = z.input<typeof questionSetInputSchema>;

/** POST /api/question-sets: a set, shared to 校本资料 at once when `shared`. */
export const questionSetCreateSchema = questionSetInputSchema.extend({ shared: z.boolean().default(false) });
export type QuestionSetCreate = z.input<typeof questionSetCreateSchema>;

/** GET /api/question-sets: `shared` is 校本资料's list, `mine` the caller's own sets (shared or not). */
export const questionSetListQuerySchema = pageQuerySchema.extend({
  scope: z.enum(['shared', 'mine']).default('shared'),
  keyword: z.string().trim().max(60, '关键词不能超过 60 个字').optional(),
  subjectId: formIdSchema.optional(),
  schoolYearId: formIdSchema.optional(),
  /** A chapter includes its subchapters. */
  chapterId: formIdSchema.optional(),
  /** A knowledge point includes those below it. */
  knowledgePointId: formIdSchema.optional(),
});
export type QuestionSetListQuery = z.input<typeof questionSetListQuerySchema>;

export const questionSetSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  subject: idNameSchema,
  schoolYear: idNameSchema,
  chapter: idNameSchema.nullable(),
  /** Always sent by the server (null: none chosen). */
  knowledgePoint: idNameSchema.nullable().optional(),
  questionCount: z.number().int().nonnegative(),
  /** Who made it (null when that account is gone), whether that is the caller, and whether the caller may change it. */
  createdBy: idNameSchema.nullable(),
  mine: z.boolean(),
  canEdit: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When it was shared to 校本资料 (null: not shared). */
  sharedAt: z.string().nullable(),
});
export type QuestionSetSummary = z.infer<typeof questionSetSummarySchema>;
export const questionSetPageSchema = pagedSchema(questionSetSummarySchema);
export type QuestionSetPage = z.infer<typeof questionSetPageSchema>;

export const questionSetDetailSchema = questionSetSummarySchema.extend({ questions: z.array(questionSchema) });
export type QuestionSetDetail = z.infer<typeof questionSetDetailSchema>;
