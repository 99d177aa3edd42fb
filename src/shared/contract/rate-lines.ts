/**
 * 各学年学科分数线: a school's 优秀 / 良好 / 及格 / 低分 lines per school year and subject (学校设置), in
 * percent of the full mark. Apart from org.ts so the pages that do not edit them do not load it.
 */
import { z } from 'zod';

const id = z.coerce.number().int().positive().max(2_147_483_647);

export const RATE_LINES_MESSAGES = {
  linesOrder: '分数线须满足 0 < 低分 < 及格 ≤ 良好 ≤ 优秀 ≤ 100',
  lineDecimals: '分数线最多保留一位小数',
} as const;

const linePercent = (label: string) =>
  z.coerce
    .number({ message: `请输入${label}线` })
    .gt(0, RATE_LINES_MESSAGES.linesOrder)
    .max(100, RATE_LINES_MESSAGES.linesOrder)
    .refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-9, RATE_LINES_MESSAGES.lineDecimals);

/**
 * PUT /api/org/schools/:orgId/rate-lines/:schoolYearId/:subjectId: one school year and subject's lines,
 * in percent of the full mark: 0 < 低分 < 及格 <= 良好 <= 优秀 <= 100, integers or one decimal.
 */
export const rateLinesSchema = z
  .object({
    excellentPercent: linePercent('优秀'),
    goodPercent: linePercent('良好'),
    passPercent: linePercent('及格'),
    lowPercent: linePercent('低分'),
  })
  .refine((v) => v.lowPercent < v.passPercent && v.passPercent <= v.goodPercent && v.goodPercent <= v.excellentPercent, {
    message: RATE_LINES_MESSAGES.linesOrder,
    path: ['passPercent'],
  });
export type RateLinesInput = z.infer<typeof rateLinesSchema>;

export const rateLinesParamsSchema = z.object({ orgId: id, schoolYearId: id, subjectId: id });

const linesShape = {
  excellentPercent: z.number(),
  goodPercent: z.number(),
  passPercent: z.number(),
  lowPercent: z.number(),
};

/** GET /api/org/schools/:orgId/rate-lines: the school's lines and the overrides per school year and subject. */
export const rateLinesListSchema = z.object({
  defaults: z.object(linesShape),
  items: z.array(
    z.object({
      schoolYearId: z.number().int(),
      schoolYearName: z.string(),
      subjectId: z.number().int(),
      subjectName: z.string(),
      ...linesShape,
    }),
  ),
  /** School years whose lines the caller may edit (every one for creators and admins, their own for a grade director). */
  editableSchoolYearIds: z.array(z.number().int()),
});
export type RateLinesList = z.infer<typeof rateLinesListSchema>;
