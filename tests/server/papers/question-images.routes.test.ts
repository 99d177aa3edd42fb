/**
 * Pictures of 本校题 (question-images contract): uploaded by a teacher for their school, checked by their
 * bytes (PNG, JPEG, WebP) and size with a Chinese 400, read and deleted only by that school's members
 * (another school finds nothing, no session is 401), never served from the public files folder, kept
 * while a question uses them, and embedded in the paper's Word export like the bank's own pictures.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { paperDetailSchema, questionSchema } from '../../../src/shared/contract/papers';
import {
  QUESTION_IMAGE_MAX_BYTES,
  QUESTION_IMAGE_MESSAGES,
  questionImageOf,
  questionImageSchema,
} from '../../../src/shared/contract/question-images';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { demoSchool } from '../org/org-helper';
import { type Caller, callerFor, createOtherSchool, multipartFile, unzip } from './papers-helper';

const picture = (color: string) => sharp({ create: { width: 120, height: 80, channels: 3, background: color } });
const PNG = await picture('#3366cc').png().toBuffer();
const JPEG = await picture('#cc6633').jpeg().toBuffer();
const WEBP = await picture('#33cc66').webp().toBuffer();
const GIF = await picture('#999999').gif().toBuffer();

describe('the question-image endpoints', () => {
  const app = useTestApp();
  let teacher: Caller;
  let colleague: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  let school: Awaited<ReturnType<typeof demoSchool>>;

  const upload = (caller: Caller, data: Buffer, type = 'image/png', name = 'figure.png') =>
    caller({ method: 'POST', url: '/api/question-images', ...multipartFile('file', name, data, type) });
  const uploaded = async (data = PNG) => questionImageSchema.parse((await upload(teacher, data)).json().data).src;

  beforeAll(async () => {
    teacher = await callerFor(app(), 'teacher');
    colleague = await callerFor(app(), 'director');
    other = await createOtherSchool(app());
    school = await demoSchool(app());
  });

  it("stores PNG, JPEG and WebP for the caller's school and gives them back to its members", async () => {
    for (const [data, type, extension] of [
      [PNG, 'image/png', 'png'],
      [JPEG, 'image/jpeg', 'jpg'],
      [WEBP, 'image/webp', 'webp'],
    ] as const) {
      const response = await upload(teacher, data, type);
      expect(response.statusCode).toBe(200);
      const { src } = questionImageSchema.parse(response.json().data);
      expect(questionImageOf(src)).toEqual({ orgId: school.orgId, name: expect.stringMatching(new RegExp(`\\.${extension}$`)) });
      const read = await colleague({ method: 'GET', url: src });
      expect(read.statusCode).toBe(200);
      expect(read.headers['content-type']).toBe(type);
      // Never kept by the browser for the next user of the computer.
      expect(read.headers['cache-control']).toBe('no-store');
      expect(read.rawPayload.equals(data)).toBe(true);
    }
  });

  it('refuses other formats, files posing as pictures and files over the limit, in Chinese', async () => {
    expect(failure(await upload(teacher, GIF, 'image/gif', 'a.gif'))).toMatchObject({
      status: 400,
      msg: QUESTION_IMAGE_MESSAGES.badType,
    });
    expect(failure(await upload(teacher, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png'))).toMatchObject({
      status: 400,
      msg: QUESTION_IMAGE_MESSAGES.badType,
    });
    const tooLarge = Buffer.concat([PNG, Buffer.alloc(QUESTION_IMAGE_MAX_BYTES)]);
    expect(failure(await upload(teacher, tooLarge))).toMatchObject({ status: 400, msg: QUESTION_IMAGE_MESSAGES.tooLarge });
    expect(failure(await upload(teacher, Buffer.alloc(0)))).toMatchObject({ status: 400, msg: QUESTION_IMAGE_MESSAGES.missing });
    expect(failure(await teacher({ method: 'POST', url: '/api/question-images', payload: {} })).status).toBe(400);
  });

  it('hides a picture from another school and from callers without a session', async () => {
    const src = await uploaded();
    expect(failure(await other.call({ method: 'GET', url: src })).status).toBe(404);
    expect(failure(await other.call({ method: 'DELETE', url: src })).status).toBe(404);
    expect((await app().inject({ method: 'GET', url: src })).statusCode).toBe(401);
    expect((await app().inject({ method: 'DELETE', url: src })).statusCode).toBe(401);
    // Not under the public files folder either.
    const { name } = questionImageOf(src)!;
    expect((await app().inject({ method: 'GET', url: `/files/question-images/${school.orgId}/${name}` })).statusCode).toBe(404);
    expect((await teacher({ method: 'GET', url: src })).statusCode).toBe(200);
  });

  it("answers another school's upload under that school, out of this school's reach", async () => {
    const { src } = questionImageSchema.parse((await upload(other.call, PNG)).json().data);
    expect(questionImageOf(src)?.orgId).toBe(other.orgId);
    expect(failure(await teacher({ method: 'GET', url: src })).status).toBe(404);
  });

  it('answers 404 for a picture that is not there, 400 for a malformed name', async () => {
    expect(
      failure(await teacher({ method: 'GET', url: `/api/question-images/${school.orgId}/${'0'.repeat(32)}.png` })).status,
    ).toBe(404);
    expect(
      failure(await teacher({ method: 'GET', url: `/api/question-images/${school.orgId}/..%2F..%2Fsecret.png` })).status,
    ).toBe(400);
  });

  it('keeps a picture a question uses, in the question, its edit and the Word export; deletes an unused one', async () => {
    const src = await uploaded();
    const input = {
      subjectId: school.mathId,
      type: 'subjective',
      stem: `<p>如图，求阴影部分的面积。</p><p><img src="${src}"></p>`,
      answer: ['<p>12</p>'],
      analysis: '',
      difficulty: 3,
    };
    const question = questionSchema.parse((await teacher({ method: 'POST', url: '/api/questions', payload: input })).json().data);
    expect(question.stem).toContain(src);
    expect(failure(await teacher({ method: 'DELETE', url: src }))).toMatchObject({
      status: 400,
      msg: QUESTION_IMAGE_MESSAGES.inUse,
    });
    const edited = questionSchema.parse(
      (await teacher({ method: 'PUT', url: `/api/questions/${question.id}`, payload: { ...input, difficulty: 4 } })).json().data,
    );
    expect(edited.stem).toContain(src);

    const paper = paperDetailSchema.parse(
      (
        await teacher({
          method: 'POST',
          url: '/api/papers',
          payload: {
            title: '带图的本校题',
            subjectId: school.mathId,
            schoolYearId: school.schoolYearId,
            paperSize: 'A4',
            sections: [{ title: '一、解答题', questions: [{ questionId: question.id, score: 10 }] }],
          },
        })
      ).json().data,
    );
    const docx = await teacher({ method: 'POST', url: `/api/papers/${paper.id}/docx`, payload: {} });
    expect(docx.statusCode).toBe(200);
    const media = [...unzip(docx.rawPayload).entries()].filter(([name]) => name.startsWith('word/media/'));
    expect(media).toHaveLength(1);
    expect(media[0]![1].equals(PNG)).toBe(true);

    const unused = await uploaded(JPEG);
    expect((await colleague({ method: 'DELETE', url: unused })).statusCode).toBe(200);
    expect(failure(await teacher({ method: 'GET', url: unused })).status).toBe(404);
  });
});
