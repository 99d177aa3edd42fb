/**
 * Pictures in a school's own questions (本校题): uploaded by a teacher of the school, stored by our server
 * (never a CDN) outside the public files folder, and read only by members of that school. A question's
 * rich text points at one with `<img src="/api/question-images/<orgId>/<name>">`, the bank's usual image
 * tag; the portal fetches it with the session (the bearer header a plain image request cannot carry).
 *
 * - POST   /api/question-images                  multipart `file` -> QuestionImage (the caller's school)
 * - GET    /api/question-images/:orgId/:name     -> the image's bytes (members of that school)
 * - DELETE /api/question-images/:orgId/:name     -> null (members; not while a question uses it)
 */
import { z } from 'zod';
import { formIdSchema } from './primitives';

export const QUESTION_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
/** What the picker offers; the server checks the bytes themselves. */
export const QUESTION_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

export const QUESTION_IMAGE_MESSAGES = {
  missing: '请选择要上传的图片',
  tooLarge: '图片不能超过 2 MB',
  badType: '图片仅支持 PNG、JPEG 或 WebP 格式',
  inUse: '图片正被本校题使用，不能删除',
} as const;

/** A stored picture's file name: random, with its real format's extension. */
export const QUESTION_IMAGE_NAME = /^[0-9a-f]{32}\.(png|jpg|webp)$/;
export const QUESTION_IMAGE_PREFIX = '/api/question-images/';

/** The school and file name of a picture address (`/api/question-images/3/ab….png`), or null for any other. */
export function questionImageOf(src: string): { orgId: number; name: string } | null {
  if (!src.startsWith(QUESTION_IMAGE_PREFIX)) return null;
  const [org, name, ...rest] = src.slice(QUESTION_IMAGE_PREFIX.length).split('/');
  const orgId = Number(org);
  if (rest.length > 0 || !name || !QUESTION_IMAGE_NAME.test(name) || !Number.isInteger(orgId) || orgId <= 0) return null;
  return { orgId, name };
}

export const questionImageSrc = (orgId: number, name: string) => `${QUESTION_IMAGE_PREFIX}${orgId}/${name}`;

export const questionImageSchema = z.object({ src: z.string() });
export type QuestionImage = z.infer<typeof questionImageSchema>;

export const questionImageParamsSchema = z.object({
  orgId: formIdSchema,
  name: z.string().regex(QUESTION_IMAGE_NAME, '图片不存在'),
});
