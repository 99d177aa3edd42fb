/**
 * Hostile scan uploads: a page whose header claims more pixels than A3 at 600 dpi is refused before
 * anything decodes it, and two files in one request are told apart from a file that is too large.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, failure, loginAs } from '../accounts-helper';
import { useTestApp } from '../helper';
import { createBatch, insertHomework, jpeg, multipart, uploadPage } from './scan-helper';

/** A real small JPEG whose frame header (SOF) is patched to declare width x height. */
async function jpegDeclaring(width: number, height: number): Promise<Buffer> {
  const data = Buffer.from(await jpeg(200, 16, 16));
  for (let i = 2; i < data.length - 9; i += 1) {
    // SOF0..SOF2: FF C0..C2, length, precision, height, width.
    if (data[i] === 0xff && data[i + 1]! >= 0xc0 && data[i + 1]! <= 0xc2) {
      data.writeUInt16BE(height, i + 5);
      data.writeUInt16BE(width, i + 7);
      return data;
    }
  }
  throw new Error('no SOF marker');
}

describe('POST /api/scan/pages with hostile files', () => {
  const app = useTestApp();
  let teacher: string;
  let batchId: number;

  beforeAll(async () => {
    const login = await loginAs(app(), 'teacher');
    teacher = login.access_token;
    const homeworkId = await insertHomework(app(), login.user.userGradeInfo.orgDefaultId!, undefined, login.user.id);
    batchId = (await createBatch(app(), teacher, { homeworkId, stationName: '教务处扫描站' })).json().data.id as number;
  });

  it('refuses a 16000x16000 page from its header, with a clear message', async () => {
    const response = await uploadPage(app(), teacher, { batchId, imageId: randomUUID() }, await jpegDeclaring(16_000, 16_000));
    expect(failure(response)).toEqual({
      status: 400,
      msg: '扫描图片尺寸过大：最大支持 A3 幅面 600 dpi（约 7016 × 9921 像素），请降低扫描分辨率后重新扫描',
    });
  });

  it('accepts A3 at 600 dpi in either orientation', async () => {
    for (const [width, height] of [
      [7016, 9921],
      [9921, 7016],
    ] as const) {
      const response = await uploadPage(app(), teacher, { batchId, imageId: randomUUID() }, await jpegDeclaring(width, height));
      expect(response.statusCode).toBe(200);
    }
  });

  it('says one file per request when two files come in one upload', async () => {
    const page = await jpeg();
    const first = multipart(
      { batchId, imageId: randomUUID(), sequence: 1, scanSubject: true, width: 24, height: 32 },
      { data: page },
    );
    // Add a second file part before the closing boundary.
    const boundary = first.contentType.split('boundary=')[1]!;
    const closing = Buffer.from(`--${boundary}--\r\n`);
    const second = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      page,
      Buffer.from('\r\n'),
    ]);
    const payload = Buffer.concat([first.payload.subarray(0, first.payload.length - closing.length), second, closing]);
    const response = await app().inject({
      method: 'POST',
      url: '/api/scan/pages',
      headers: { ...bearer(teacher), 'content-type': first.contentType },
      payload,
    });
    expect(failure(response)).toEqual({ status: 400, msg: '每次只能上传一个文件，请逐页上传扫描图片' });
  });
});
