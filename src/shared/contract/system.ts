/**
 * The school structure: one tree of school years (type 1) and classes (type 2) per school, and the
 * public client configuration.
 */
import { z } from 'zod';
import { userGradeInfoSchema } from './auth';
import { formIdSchema, idSchema, text } from './primitives';

export const CLASS_TYPE = { schoolYear: 1, klass: 2 } as const;

/** GET /api/system/class?orgId=&type=1&pid= : the school years (or, with type=2 and pid, the classes). */
export const classListQuerySchema = z.object({
  orgId: formIdSchema,
  type: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)])),
  pid: text()
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : Number(value)))
    .pipe(idSchema.optional()),
});

/** One school-year or class entry. The client reads the list from `data.data`... of the HTTP answer. */
export const classItemSchema = z.object({ id: z.number().int(), name: z.string() });
export type ClassItem = z.infer<typeof classItemSchema>;
export const classListSchema = z.array(classItemSchema);

/** PUT /api/system/class/updateClassDefault, form-encoded. */
export const updateClassDefaultSchema = z.object({
  orgId: formIdSchema,
  classId: formIdSchema,
});
/** Its answer: the user's grade info after the change (the spec's client reloads and need not read it). */
export const updateClassDefaultResponseSchema = userGradeInfoSchema;

/** GET /api/config: the product config of spec §3 (public, no login needed). */
export const clientConfigSchema = z.object({
  imageBaseUrl: z.string(),
  websocketBaseUrl: z.string(),
  captchaSiteKey: z.string(),
  messagingAppId: z.string(),
  /** Dynamic Web TWAIN's product key ('' : the scanning service runs unlicensed, as a trial). */
  dwtProductKey: z.string(),
  /** The site's filing number (备案号, FILING_NUMBER); a school's own, set in 学校设置, wins for its members. */
  filingNumber: z.string(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
