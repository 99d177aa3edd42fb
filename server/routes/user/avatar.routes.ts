import type { FastifyInstance } from 'fastify';
import { AVATAR_MAX_BYTES } from '../../../src/shared/contract/auth';
import { ApiError } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { AVATAR_MESSAGES } from '../../services/user/avatar.service';

export default async function avatarRoutes(app: FastifyInstance) {
  app.post('/user/avatar', { preHandler: app.authenticate }, async (request) => {
    const { userId } = requireAuth(request);
    if (!request.isMultipart()) throw ApiError.badRequest(AVATAR_MESSAGES.missing);
    // One byte over the limit is enough to know the file is too large.
    const file = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES + 1, files: 1 } });
    if (!file || file.fieldname !== 'file') throw ApiError.badRequest(AVATAR_MESSAGES.missing);
    let data: Buffer;
    try {
      data = await file.toBuffer();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw ApiError.badRequest(AVATAR_MESSAGES.tooLarge);
      if (code === 'FST_FILES_LIMIT') throw ApiError.badRequest(AVATAR_MESSAGES.oneFile);
      throw error;
    }
    return ok({ avatar: await app.accounts.avatars.save(userId, data) });
  });
}
