/**
 * 校本资料 (the school's shared library of papers): its list query, page and the share request. Rows are
 * 我的试卷's PaperSummary (with sharedAt and sharedChapter). Kept apart from papers.ts so pages that do not
 * use the library do not load these schemas.
 * - GET    /api/school-materials   -> MaterialPage
 * - POST   /api/papers/:id/share   ShareRequest -> PaperSummary (the author only)
 * - DELETE /api/papers/:id/share   -> null (the author or an admin)
 */
import { z } from 'zod';
import { pageQuerySchema, pagedSchema, paperSummarySchema } from './papers';
import { formIdSchema, idSchema } from './primitives';

/** GET /api/school-materials: the school's shared papers, newest share first; a chapter includes its subchapters. */
export const materialListQuerySchema = pageQuerySchema.extend({
  keyword: z.string().trim().max(60, '关键词不能超过 60 个字').optional(),
  subjectId: formIdSchema.optional(),
  schoolYearId: formIdSchema.optional(),
  chapterId: formIdSchema.optional(),
});
export type MaterialListQuery = z.input<typeof materialListQuerySchema>;
/** A page of 校本资料; `canRemoveAny`: the caller (an admin) may remove colleagues' items, not only withdraw their own. */
export const materialPageSchema = pagedSchema(paperSummarySchema).extend({ canRemoveAny: z.boolean() });
export type MaterialPage = z.infer<typeof materialPageSchema>;

/** POST /api/papers/:id/share: 共享到校本资料, filed under a chapter of the paper's subject (or none). */
export const shareRequestSchema = z.object({ chapterId: idSchema.nullable().default(null) });
export type ShareRequest = z.input<typeof shareRequestSchema>;
