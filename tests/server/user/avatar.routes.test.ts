import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, currentUserSchema } from '../../../src/shared/contract/auth';
import { bearer, failure, loginAs } from '../accounts-helper';
import { createTestApp } from '../helper';

const square = (size: number) => sharp({ create: { width: size, height: size, channels: 3, background: '#3366cc' } });
const PNG = await square(600).png().toBuffer();
const JPEG = await square(300).jpeg().toBuffer();
const GIF = await square(64).gif().toBuffer();
const WEBP = await square(128).webp().toBuffer();

/** A PNG whose header declares the size, with a token of (deflated white) pixel data. */
export function pngWithHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = zlib.deflateSync(Buffer.alloc((width * 3 + 1) * 4, 0xff));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

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
  ])(
    're-encodes a %s as a small PNG under DATA_DIR/files/avatars and serves it at /files/ with nosniff',
    async (ext, data, type) => {
      const response = await upload(multipart('file', `me.${ext}`, type, data));
      expect(response.statusCode).toBe(200);
      const avatar = response.json().data.avatar as string;
      expect(avatar).toMatch(/^avatars\/[0-9a-f]{32}\.png$/);
      const stored = fs.readFileSync(path.join(handle.dataDir, 'files', avatar));
      expect(await sharp(stored).metadata()).toMatchObject({ format: 'png', width: 256, height: 256 });

      const served = await handle.app.inject({ method: 'GET', url: `/files/${avatar}` });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload).toEqual(stored);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('never serves the uploaded bytes: HTML behind PNG magic bytes is refused, not stored', async () => {
    const polyglot = Buffer.concat([PNG.subarray(0, 8), Buffer.from('<html><script>alert(document.cookie)</script></html>')]);
    const response = await upload(multipart('file', 'evil.png', 'image/png', polyglot));
    expect(failure(response)).toEqual({ status: 400, msg: '头像图片已损坏或无法识别，请换一张图片' });
    expect(fs.readdirSync(path.join(handle.dataDir, 'files', 'avatars')).every((name) => name.endsWith('.png'))).toBe(true);
  });

  it('refuses a 20000x20000 image from its header, before decoding it', async () => {
    // Decoding it would take 1.2 GB; its header alone says so.
    const huge = pngWithHeader(20_000, 20_000);
    expect((await sharp(huge, { limitInputPixels: false }).metadata()).width).toBe(20_000);
    const started = Date.now();
    expect(failure(await upload(multipart('file', 'huge.png', 'image/png', huge)))).toEqual({
      status: 400,
      msg: '头像图片尺寸过大，请上传长宽不超过 4096 像素的图片',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);

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
