/**
 * 装订 (paper binding): bound PDF booklets made from stored scans, in the background. A job is either one
 * class's sheets of one homework (a cover with the totals, 缺考 and 未扫描 students, then every scanned
 * student's pages in 学号 order) or the sheets of a class's students over a date range (a term), each page
 * stamped with that homework's score, as one PDF or a ZIP of one PDF per student.
 */
import { z } from 'zod';
import { dateSchema, idSchema } from './primitives';

export const bindingJobCreateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('homework'), homeworkId: idSchema, classId: idSchema }),
  z
    .object({
      kind: z.literal('students'),
      classId: idSchema,
      /** One student of the class; every student of the class when absent. */
      studentId: idSchema.optional(),
      from: dateSchema,
      to: dateSchema,
      format: z.enum(['pdf', 'zip']),
    })
    .refine((job) => job.to >= job.from, { message: '结束日期不能早于开始日期', path: ['to'] }),
]);
export type BindingJobCreate = z.input<typeof bindingJobCreateSchema>;

export const BINDING_JOB_STATUS_LABELS = { running: '生成中', done: '已完成', failed: '失败' } as const;

export const bindingJobSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  /** Units done (students bound) of `total`. */
  done: z.number().int(),
  total: z.number().int(),
  /** What is being bound, in Chinese. */
  title: z.string(),
  fileName: z.string().nullable(),
  /** Why a failed job failed, in Chinese. */
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type BindingJob = z.infer<typeof bindingJobSchema>;

export const bindingJobParamsSchema = z.object({ id: z.string().regex(/^[0-9a-f-]{36}$/, '任务编号无效') });
