import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, currentUserSchema } from '../../../src/shared/contract/auth';
import { bearer, failure, loginAs } from '../accounts-helper';
import { createTestApp } from '../helper';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

function multipart(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = '----smart-homework-test';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('POST /api/user/avatar', () => {
  let handle: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    handle = await createTestApp();
  });
  afterAll(async () => handle.close());

  const upload = async (body: ReturnType<typeof multipart>) => {
    const { access_token } = await loginAs(handle.app, 'teacher');
    return handle.app.inject({
      method: 'POST',
      url: '/api/user/avatar',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(access_token) },
    });
  };

  it.each([
    ['png', PNG, 'image/png'],
    ['jpg', JPEG, 'image/jpeg'],
    ['gif', GIF, 'image/gif'],
    ['webp', WEBP, 'image/webp'],
  ])('stores a %s under DATA_DIR/files/avatars, answers its relative path and serves it at /files/', async (ext, data, type) => {
    const response = await upload(multipart('file', `me.${ext}`, type, data));
    expect(response.statusCode).toBe(200);
    const avatar = response.json().data.avatar as string;
    expect(avatar).toMatch(new RegExp(`^avatars/[0-9a-f]{32}\\.${ext}$`));
    expect(fs.readFileSync(path.join(handle.dataDir, 'files', avatar))).toEqual(data);

    const served = await handle.app.inject({ method: 'GET', url: `/files/${avatar}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload).toEqual(data);
  });

  it('points the user at the new avatar and deletes the previous file', async () => {
    const first = (await upload(multipart('file', 'a.png', 'image/png', PNG))).json().data.avatar as string;
    const second = (await upload(multipart('file', 'b.png', 'image/png', PNG))).json().data.avatar as string;
    const { access_token } = await loginAs(handle.app, 'teacher');
    const info = await handle.app.inject({ method: 'GET', url: '/api/user/info', headers: bearer(access_token) });
    expect(currentUserSchema.parse(info.json().data).avatar).toBe(second);
    expect(fs.existsSync(path.join(handle.dataDir, 'files', first))).toBe(false);
  });

  it('judges the type by the bytes, not by the declared type or name', async () => {
    const response = await upload(multipart('file', 'evil.png', 'image/png', Buffer.from('<svg onload="alert(1)"></svg>')));
    expect(failure(response)).toEqual({ status: 400, msg: '头像仅支持 PNG、JPEG、WebP 或 GIF 图片' });
  });

  it('refuses a file over the size limit', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES)]);
    expect(failure(await upload(multipart('file', 'big.png', 'image/png', big)))).toEqual({
      status: 400,
      msg: '头像图片不能超过 2 MB',
    });
  });

  it('refuses an empty file, another field name and a non-multipart body', async () => {
    expect(failure(await upload(multipart('file', 'empty.png', 'image/png', Buffer.alloc(0)))).msg).toBe(
      '请选择要上传的头像图片',
    );
    expect(failure(await upload(multipart('picture', 'me.png', 'image/png', PNG))).msg).toBe('请选择要上传的头像图片');
    const { access_token } = await loginAs(handle.app, 'teacher');
    const json = await handle.app.inject({
      method: 'POST',
      url: '/api/user/avatar',
      payload: { file: 'x' },
      headers: bearer(access_token),
    });
    expect(failure(json)).toEqual({ status: 400, msg: '请选择要上传的头像图片' });
  });

  it('answers 401 without a token', async () => {
    const body = multipart('file', 'me.png', 'image/png', PNG);
    const response = await handle.app.inject({ method: 'POST', url: '/api/user/avatar', ...body });
    expect(failure(response).status).toBe(401);
  });
});
