/**
 * Avatars: checks an uploaded image by its magic bytes (never by the declared type) and its dimensions
 * from the header (before anything is decoded), re-encodes it with sharp as a small PNG (so what is
 * served is always an image this server made, never bytes the uploader chose), stores it as
 * files/avatars/<random>.png in the file storage and points the user at it. Serving the files is the
 * files plugin's job.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { AVATAR_MAX_BYTES } from '../../../src/shared/contract/auth';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { type FileStorage, servedFileKey } from '../storage/file-storage';

export const AVATAR_DIR = 'avatars';

export const AVATAR_MESSAGES = {
  missing: '请选择要上传的头像图片',
  badType: '头像仅支持 PNG、JPEG、WebP 或 GIF 图片',
  tooLarge: `头像图片不能超过 ${AVATAR_MAX_BYTES / 1024 / 1024} MB`,
  tooManyPixels: '头像图片尺寸过大，请上传长宽不超过 4096 像素的图片',
  unreadable: '头像图片已损坏或无法识别，请换一张图片',
  oneFile: '每次只能上传一张头像图片',
} as const;

/** Larger sides are refused before decoding; what is kept is at most AVATAR_SIZE square. */
const AVATAR_MAX_SIDE = 4096;
const AVATAR_SIZE = 256;

type ImageKind = 'png' | 'jpg' | 'gif' | 'webp';

const startsWith = (data: Buffer, bytes: number[], offset = 0) =>
  data.length >= offset + bytes.length && bytes.every((byte, i) => data[offset + i] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image format the bytes really are, or null. */
export function detectImageKind(data: Buffer): ImageKind | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(data, ascii('GIF87a')) || startsWith(data, ascii('GIF89a'))) return 'gif';
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WEBP'), 8)) return 'webp';
  return null;
}

/** The header's dimensions are checked first; only then is the (first frame of the) image decoded. */
async function reencode(data: Buffer): Promise<Buffer> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    // Reading the header decodes nothing; the pixel limit applies to decoding, below.
    ({ width, height } = await sharp(data, { limitInputPixels: false }).metadata());
  } catch {
    throw ApiError.badRequest(AVATAR_MESSAGES.unreadable);
  }
  if (!width || !height) throw ApiError.badRequest(AVATAR_MESSAGES.unreadable);
  if (width > AVATAR_MAX_SIDE || height > AVATAR_MAX_SIDE) throw ApiError.badRequest(AVATAR_MESSAGES.tooManyPixels);
  try {
    return await sharp(data, { limitInputPixels: AVATAR_MAX_SIDE * AVATAR_MAX_SIDE })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
      .png()
      .toBuffer();
  } catch {
    throw ApiError.badRequest(AVATAR_MESSAGES.unreadable);
  }
}

export type AvatarService = ReturnType<typeof createAvatarService>;

export function createAvatarService({ db, storage }: { db: Db; storage: FileStorage }) {
  return {
    /** Stores the image and answers its path relative to the image base URL, e.g. avatars/ab12.png. */
    async save(userId: number, data: Buffer): Promise<string> {
      if (data.length === 0) throw ApiError.badRequest(AVATAR_MESSAGES.missing);
      if (data.length > AVATAR_MAX_BYTES) throw ApiError.badRequest(AVATAR_MESSAGES.tooLarge);
      if (!detectImageKind(data)) throw ApiError.badRequest(AVATAR_MESSAGES.badType);
      const image = await reencode(data);

      const relative = `${AVATAR_DIR}/${randomBytes(16).toString('hex')}.png`;
      await storage.write(servedFileKey(relative), image);

      const [previous] = await db.select({ avatar: users.avatar }).from(users).where(eq(users.id, userId));
      await db.update(users).set({ avatar: relative }).where(eq(users.id, userId));
      // Only our own generated names are ever deleted, never a path that could leave the avatars folder.
      if (previous?.avatar && /^avatars\/[0-9a-f]{32}\.(png|jpg|gif|webp)$/.test(previous.avatar)) {
        await storage.remove(servedFileKey(previous.avatar));
      }
      return relative;
    },
  };
}
