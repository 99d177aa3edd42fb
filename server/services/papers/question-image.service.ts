/**
 * Pictures of a school's own questions (本校题): stored under `question-images/<orgId>/` in the file
 * storage, outside the publicly served `files/` folder, so only this service hands them out: to members
 * of that school (anyone else, as for every resource of another school, finds nothing: 404). The format is
 * checked by the bytes (PNG, JPEG or WebP) and the size before anything is written. Owns the files only;
 * the questions point at them by address (question-images contract).
 */
import { randomBytes } from 'node:crypto';
import { and, eq, or, sql } from 'drizzle-orm';
import {
  QUESTION_IMAGE_MAX_BYTES,
  QUESTION_IMAGE_MESSAGES,
  QUESTION_IMAGE_NAME,
  type QuestionImage,
  questionImageOf,
  questionImageSrc,
} from '../../../src/shared/contract/question-images';
import type { Db } from '../../db/client';
import { questions } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { loadActor } from '../org/permissions';
import type { FileStorage } from '../storage/file-storage';
import { detectImageKind } from '../user/avatar.service';
import { requireSchool } from './school-scope';

export const QUESTION_IMAGE_DIR = 'question-images';
const CONTENT_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;

const storageKey = (orgId: number, name: string) => `${QUESTION_IMAGE_DIR}/${orgId}/${name}`;

/** The picture's bytes for the Word export of a paper of `orgId` (null: not one of that school's pictures). */
export async function readQuestionImage(storage: FileStorage, orgId: number, name: string): Promise<Buffer | null> {
  if (!QUESTION_IMAGE_NAME.test(name)) return null;
  try {
    return await storage.read(storageKey(orgId, name));
  } catch {
    return null;
  }
}

export function createQuestionImageService({ db, storage }: { db: Db; storage: FileStorage }) {
  /** Members of the school only; anyone else is told it does not exist. */
  const requireMember = (userId: number, orgId: number) => loadActor(db, userId, orgId);

  return {
    /** Stores a picture for the caller's current school and answers its address. */
    async upload(userId: number, data: Buffer): Promise<QuestionImage> {
      const scope = await requireSchool(db, userId);
      if (data.length === 0) throw ApiError.badRequest(QUESTION_IMAGE_MESSAGES.missing);
      if (data.length > QUESTION_IMAGE_MAX_BYTES) throw ApiError.badRequest(QUESTION_IMAGE_MESSAGES.tooLarge);
      const kind = detectImageKind(data);
      if (kind !== 'png' && kind !== 'jpg' && kind !== 'webp') throw ApiError.badRequest(QUESTION_IMAGE_MESSAGES.badType);
      const name = `${randomBytes(16).toString('hex')}.${kind}`;
      await storage.write(storageKey(scope.orgId, name), data);
      return { src: questionImageSrc(scope.orgId, name) };
    },

    async read(userId: number, orgId: number, name: string): Promise<{ data: Buffer; contentType: string }> {
      await requireMember(userId, orgId);
      const data = await readQuestionImage(storage, orgId, name);
      if (!data) throw ApiError.notFound();
      const extension = name.slice(name.lastIndexOf('.') + 1) as keyof typeof CONTENT_TYPES;
      return { data, contentType: CONTENT_TYPES[extension] };
    },

    /**
     * The bytes of a picture a question's text points at, for a document the caller downloads (the Word
     * export): null when the address is not a picture of a school the caller belongs to.
     */
    async readForDocument(userId: number, src: string): Promise<Buffer | null> {
      const image = questionImageOf(src);
      if (!image) return null;
      try {
        await requireMember(userId, image.orgId);
      } catch {
        return null;
      }
      return readQuestionImage(storage, image.orgId, image.name);
    },

    /** Removes a picture no question of the school uses (one uploaded for a question then not saved). */
    async remove(userId: number, orgId: number, name: string): Promise<null> {
      await requireMember(userId, orgId);
      if (!(await storage.exists(storageKey(orgId, name)))) throw ApiError.notFound();
      const pattern = `%${questionImageSrc(orgId, name)}%`;
      const [used] = await db
        .select({ id: questions.id })
        .from(questions)
        .where(
          and(
            eq(questions.orgId, orgId),
            or(
              sql`${questions.stem} like ${pattern}`,
              sql`${questions.analysis} like ${pattern}`,
              sql`${questions.options}::text like ${pattern}`,
              sql`${questions.answer}::text like ${pattern}`,
            ),
          ),
        )
        .limit(1);
      if (used) throw ApiError.badRequest(QUESTION_IMAGE_MESSAGES.inUse);
      await storage.remove(storageKey(orgId, name));
      return null;
    },
  };
}
