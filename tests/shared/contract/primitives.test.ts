import { describe, expect, it } from 'vitest';
import { registerRequestSchema, updateProfileRequestSchema } from '../../../src/shared/contract/auth';
import { assignmentsUpdateSchema } from '../../../src/shared/contract/marking';
import {
  homeworkCreateSchema,
  homeworkListQuerySchema,
  paperInputSchema,
  questionQuerySchema,
} from '../../../src/shared/contract/papers';
import {
  DATE_INVALID_MESSAGE,
  ID_INVALID_MESSAGE,
  MAX_ID,
  TEXT_INVALID_MESSAGE,
  dateSchema,
  formIdSchema,
  idSchema,
  isCalendarDate,
  isStorableText,
  text,
} from '../../../src/shared/contract/primitives';
import { scanBatchCreateSchema } from '../../../src/shared/contract/scan-upload';
import { classListQuerySchema, updateClassDefaultSchema } from '../../../src/shared/contract/system';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('text', () => {
  it.each([
    ['a\u0000b', false],
    ['\uD800', false],
    ['a\uD83Db', false],
    ['\uDE00x', false],
    ['题干 😀 ok', true],
    ['', true],
  ])('%j storable: %s', (value, storable) => {
    expect(isStorableText(value)).toBe(storable);
    expect(text().safeParse(value).success).toBe(storable);
  });

  it('rejects NUL with the Chinese message, and still trims and bounds after', () => {
    expect(messages(updateProfileRequestSchema.safeParse({ nickname: '张\u0000三' }))).toEqual([TEXT_INVALID_MESSAGE]);
    expect(updateProfileRequestSchema.parse({ nickname: '  张三 ' })).toEqual({ nickname: '张三' });
    expect(messages(updateProfileRequestSchema.safeParse({ nickname: '   ' }))).toEqual(['请输入昵称']);
  });

  it.each([
    [
      'nickname',
      () =>
        registerRequestSchema.safeParse({
          nickname: '\uD800',
          mobile: '13800000001',
          smsCode: '123456',
          password: 'abc12345',
          password2: 'abc12345',
        }),
    ],
    [
      'paper title',
      () =>
        paperInputSchema.safeParse({
          title: 'x\u0000',
          subjectId: 1,
          schoolYearId: 1,
          sections: [{ title: 'a', questions: [{ questionId: 1, score: 1 }] }],
        }),
    ],
    [
      'section title',
      () =>
        paperInputSchema.safeParse({
          title: 'x',
          subjectId: 1,
          schoolYearId: 1,
          sections: [{ title: '\uDC00', questions: [{ questionId: 1, score: 1 }] }],
        }),
    ],
    ['station name', () => scanBatchCreateSchema.safeParse({ stationName: 'A\u0000' })],
    ['keyword', () => questionQuerySchema.safeParse({ subjectId: '1', keyword: '\u0000' })],
  ])('every request string rejects bad text: %s', (_name, parse) => {
    expect(messages(parse())).toContain(TEXT_INVALID_MESSAGE);
  });
});

describe('ids', () => {
  it('bounds ids to int4', () => {
    expect(idSchema.safeParse(MAX_ID).success).toBe(true);
    expect(messages(idSchema.safeParse(MAX_ID + 1))).toEqual([ID_INVALID_MESSAGE]);
    expect(idSchema.safeParse(0).success).toBe(false);
    expect(idSchema.safeParse(1.5).success).toBe(false);
    expect(formIdSchema.parse('42')).toBe(42);
    expect(formIdSchema.safeParse('2147483648').success).toBe(false);
    expect(formIdSchema.safeParse('abc').success).toBe(false);
  });

  it.each([
    ['subjectId', () => questionQuerySchema.safeParse({ subjectId: '99999999999' })],
    ['classId', () => homeworkListQuerySchema.safeParse({ classId: '99999999999' })],
    [
      'classIds[]',
      () => homeworkCreateSchema.safeParse({ paperId: 1, classIds: [2 ** 40], startDate: '2026-01-01', dueDate: '2026-01-02' }),
    ],
    [
      'schoolYearId',
      () =>
        paperInputSchema.safeParse({
          title: 'x',
          subjectId: 1,
          schoolYearId: 2 ** 31,
          sections: [{ title: 'a', questions: [{ questionId: 1, score: 1 }] }],
        }),
    ],
    [
      'questionId',
      () =>
        paperInputSchema.safeParse({
          title: 'x',
          subjectId: 1,
          schoolYearId: 1,
          sections: [{ title: 'a', questions: [{ questionId: 2 ** 31, score: 1 }] }],
        }),
    ],
    ['orgId', () => updateClassDefaultSchema.safeParse({ orgId: '2147483648', classId: '1' })],
    ['pid', () => classListQuerySchema.safeParse({ orgId: '1', type: '2', pid: '2147483648' })],
    [
      'questionNo',
      () =>
        assignmentsUpdateSchema.safeParse({
          questions: [{ questionNo: 2 ** 31, userIds: [], doubleMarking: false, tolerance: 0 }],
        }),
    ],
  ])('every id is bounded: %s', (_name, parse) => {
    expect(parse().success).toBe(false);
  });
});

describe('dates', () => {
  it.each([
    ['2026-02-28', true],
    ['2024-02-29', true],
    ['0001-01-01', true],
    ['9999-12-31', true],
    ['2026-02-30', false],
    ['2023-02-29', false],
    ['0000-01-01', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-04-31', false],
    ['2026-4-1', false],
  ])('%s exists: %s', (value, exists) => {
    expect(isCalendarDate(value)).toBe(exists);
    expect(dateSchema.safeParse(value).success).toBe(exists);
  });

  it('names an impossible date in Chinese', () => {
    expect(
      messages(homeworkCreateSchema.safeParse({ paperId: 1, classIds: [1], startDate: '2026-02-30', dueDate: '2026-03-01' })),
    ).toContain(DATE_INVALID_MESSAGE);
  });
});
