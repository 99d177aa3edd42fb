import { beforeAll, describe, expect, it } from 'vitest';
import { questionPageSchema, questionSchema, treeSchema } from '../../../src/shared/contract/papers';
import {
  questionSetDetailSchema,
  questionSetPageSchema,
  questionSetSummarySchema,
  type QuestionSetCreate,
} from '../../../src/shared/contract/question-sets';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor, createOtherSchool } from './papers-helper';

const MATH = 1;
const SCHOOL_YEAR = 1;
const FORBIDDEN = '很抱歉，您暂无该操作权限';

describe('题目合集 (/api/question-sets)', () => {
  const app = useTestApp();
  let teacher: Caller;
  let colleague: Caller;
  let admin: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  let singles: number[];
  let book: { id: number; name: string };
  let section: { id: number; name: string };

  beforeAll(async () => {
    teacher = await callerFor(app(), 'teacher');
    colleague = await callerFor(app(), 'director');
    admin = await callerFor(app(), 'creator');
    other = await createOtherSchool(app());
    singles = questionPageSchema
      .parse((await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&type=single&pageSize=10` })).json().data)
      .list.map((q) => q.id);
    const tree = treeSchema.parse((await teacher({ method: 'GET', url: `/api/subjects/${MATH}/chapters` })).json().data);
    book = { id: tree[0]!.id, name: tree[0]!.name };
    section = { id: tree[0]!.children[0]!.children[0]!.id, name: tree[0]!.children[0]!.children[0]!.name };
  });

  const input = (overrides: Partial<QuestionSetCreate> = {}): QuestionSetCreate => ({
    name: '有理数易错题',
    subjectId: MATH,
    schoolYearId: SCHOOL_YEAR,
    questionIds: singles.slice(0, 3),
    ...overrides,
  });

  async function make(call: Caller, overrides: Partial<QuestionSetCreate> = {}) {
    const response = await call({ method: 'POST', url: '/api/question-sets', payload: input(overrides) });
    expect(response.statusCode).toBe(200);
    return questionSetDetailSchema.parse(response.json().data);
  }

  async function list(call: Caller, query = '') {
    const response = await call({ method: 'GET', url: `/api/question-sets${query}` });
    expect(response.statusCode).toBe(200);
    return questionSetPageSchema.parse(response.json().data);
  }

  it('makes a set of bank questions in order, shares it, and colleagues list it with author, time and chapter', async () => {
    const ids = [singles[2]!, singles[0]!, singles[1]!];
    const set = await make(teacher, { questionIds: ids, chapterId: section.id, description: '第一章易错', shared: true });
    expect(set).toMatchObject({
      name: '有理数易错题',
      description: '第一章易错',
      subject: { id: MATH, name: '数学' },
      chapter: section,
      questionCount: 3,
      mine: true,
      canEdit: true,
      createdBy: { name: '王老师' },
    });
    expect(set.sharedAt).not.toBeNull();
    expect(set.questions.map((q) => q.id)).toEqual(ids);

    const seen = (await list(colleague)).list.find((s) => s.id === set.id);
    expect(seen).toMatchObject({ mine: false, canEdit: false, questionCount: 3, createdBy: { name: '王老师' } });
    const read = await colleague({ method: 'GET', url: `/api/question-sets/${set.id}` });
    expect(questionSetDetailSchema.parse(read.json().data).questions.map((q) => q.id)).toEqual(ids);
    expect((await list(admin)).list.find((s) => s.id === set.id)?.canEdit).toBe(true);
  });

  it("holds the school's own questions, not another school's", async () => {
    const own = await teacher({
      method: 'POST',
      url: '/api/questions',
      payload: {
        subjectId: MATH,
        type: 'blank',
        stem: '<p>$-3$ 的相反数是 ______</p>',
        answer: ['3'],
        difficulty: 1,
        chapterIds: [],
        knowledgePointIds: [],
      },
    });
    const ownId = questionSchema.parse(own.json().data).id;
    const set = await make(teacher, { name: '校本题合集', questionIds: [ownId, singles[0]!] });
    expect(set.questions.map((q) => [q.id, q.shared])).toEqual([
      [ownId, false],
      [singles[0], true],
    ]);
    // The other school cannot put this school's question in its sets.
    const foreign = await other.call({
      method: 'POST',
      url: '/api/question-sets',
      payload: { ...input(), subjectId: other.subjectId, schoolYearId: other.schoolYearId, questionIds: [ownId] },
    });
    expect(failure(foreign)).toMatchObject({ status: 400, msg: `试题不存在或不属于该学科：${ownId}` });
  });

  it('an unshared set is its owner’s: colleagues do not find it (404), admins do; sharing shows it', async () => {
    const set = await make(teacher, { name: '草稿合集' });
    expect((await list(colleague)).list.map((s) => s.id)).not.toContain(set.id);
    expect((await list(teacher, '?scope=mine')).list.map((s) => s.id)).toContain(set.id);
    expect(failure(await colleague({ method: 'GET', url: `/api/question-sets/${set.id}` })).status).toBe(404);
    expect((await admin({ method: 'GET', url: `/api/question-sets/${set.id}` })).statusCode).toBe(200);
    // Only the owner shares, not an admin on their behalf.
    expect(failure(await admin({ method: 'POST', url: `/api/question-sets/${set.id}/share`, payload: {} }))).toMatchObject({
      status: 403,
      msg: FORBIDDEN,
    });
    const shared = await teacher({ method: 'POST', url: `/api/question-sets/${set.id}/share`, payload: {} });
    expect(questionSetSummarySchema.parse(shared.json().data).sharedAt).not.toBeNull();
    expect((await list(colleague)).list.map((s) => s.id)).toContain(set.id);
  });

  it('the owner and admins rename, change and delete; a colleague reads only (403)', async () => {
    const set = await make(teacher, { name: '绝对值', shared: true });
    const change = (call: Caller, name: string) =>
      call({ method: 'PUT', url: `/api/question-sets/${set.id}`, payload: input({ name, questionIds: [singles[4]!] }) });
    expect(failure(await change(colleague, '偷改'))).toMatchObject({ status: 403, msg: FORBIDDEN });
    expect(failure(await colleague({ method: 'DELETE', url: `/api/question-sets/${set.id}` })).status).toBe(403);
    expect(failure(await colleague({ method: 'DELETE', url: `/api/question-sets/${set.id}/share` })).status).toBe(403);

    const renamed = questionSetDetailSchema.parse((await change(teacher, '绝对值专项')).json().data);
    expect(renamed).toMatchObject({ name: '绝对值专项', questionCount: 1 });
    expect(renamed.questions.map((q) => q.id)).toEqual([singles[4]]);
    expect(questionSetDetailSchema.parse((await change(admin, '绝对值（审定）')).json().data).name).toBe('绝对值（审定）');

    expect((await admin({ method: 'DELETE', url: `/api/question-sets/${set.id}/share` })).statusCode).toBe(200);
    expect((await list(colleague)).list.map((s) => s.id)).not.toContain(set.id);
    expect(failure(await teacher({ method: 'DELETE', url: `/api/question-sets/${set.id}/share` })).status).toBe(404);
    expect((await teacher({ method: 'DELETE', url: `/api/question-sets/${set.id}` })).statusCode).toBe(200);
    expect(failure(await teacher({ method: 'GET', url: `/api/question-sets/${set.id}` })).status).toBe(404);
  });

  it('a colleague copies a shared set into their own sets, unshared', async () => {
    const set = await make(teacher, { name: '数轴', shared: true, chapterId: section.id });
    const response = await colleague({ method: 'POST', url: `/api/question-sets/${set.id}/copy`, payload: {} });
    expect(response.statusCode).toBe(200);
    const copy = questionSetDetailSchema.parse(response.json().data);
    expect(copy).toMatchObject({ name: '数轴（副本）', mine: true, sharedAt: null, chapter: section, questionCount: 3 });
    expect((await list(colleague, '?scope=mine')).list.map((s) => s.id)).toContain(copy.id);
  });

  it('filters by keyword, subject, school year and chapter (with subchapters), newest share first', async () => {
    const filed = await make(teacher, { name: '正数和负数', chapterId: section.id, shared: true });
    const loose = await make(teacher, { name: '期中复习题', shared: true });
    const ids = async (query: string) => (await list(colleague, query)).list.map((s) => s.id);
    // The demo school's own shared set (seeded) may match too.
    expect(await ids(`?keyword=${encodeURIComponent('正数和')}`)).toContain(filed.id);
    expect(await ids(`?keyword=${encodeURIComponent('正数和')}`)).not.toContain(loose.id);
    expect(await ids(`?chapterId=${book.id}`)).toContain(filed.id);
    expect(await ids(`?chapterId=${book.id}`)).not.toContain(loose.id);
    expect(await ids(`?subjectId=${MATH}&schoolYearId=${SCHOOL_YEAR}`)).toEqual(expect.arrayContaining([filed.id, loose.id]));
    expect(await ids(`?schoolYearId=999999`)).toEqual([]);
    expect((await list(colleague, '?pageSize=1')).list[0]!.id).toBe(loose.id);
  });

  it('files a set under a knowledge point (optional), filters by it with the points below it, and copies keep it', async () => {
    const points = treeSchema.parse(
      (await teacher({ method: 'GET', url: `/api/subjects/${MATH}/knowledge-points` })).json().data,
    );
    const top = points[0]!;
    const leaf = top.children[0] ?? top;
    const filed = await make(teacher, { name: '知识点合集', knowledgePointId: leaf.id, shared: true });
    const loose = await make(teacher, { name: '不挂知识点', shared: true });
    expect(filed.knowledgePoint).toEqual({ id: leaf.id, name: leaf.name });
    expect(loose.knowledgePoint).toBeNull();
    const ids = async (query: string) => (await list(colleague, query)).list.map((s) => s.id);
    expect(await ids(`?knowledgePointId=${top.id}`)).toContain(filed.id);
    expect(await ids(`?knowledgePointId=${top.id}`)).not.toContain(loose.id);
    expect(await ids(`?knowledgePointId=999999`)).toEqual([]);
    const copy = questionSetDetailSchema.parse(
      (await colleague({ method: 'POST', url: `/api/question-sets/${filed.id}/copy`, payload: {} })).json().data,
    );
    expect(copy.knowledgePoint).toEqual({ id: leaf.id, name: leaf.name });
    const chinesePoints = treeSchema.parse(
      (await teacher({ method: 'GET', url: '/api/subjects/2/knowledge-points' })).json().data,
    );
    const wrong = await teacher({
      method: 'POST',
      url: '/api/question-sets',
      payload: input({ knowledgePointId: chinesePoints[0]!.id }),
    });
    expect(failure(wrong)).toEqual({ status: 400, msg: '知识点不存在或不属于该学科' });
  });

  it("another school never sees, reads, copies, changes or deletes this school's sets (404)", async () => {
    const set = await make(teacher, { name: '相反数', shared: true });
    expect((await list(other.call)).list.map((s) => s.id)).not.toContain(set.id);
    const calls = [
      { method: 'GET', url: `/api/question-sets/${set.id}` },
      { method: 'PUT', url: `/api/question-sets/${set.id}`, payload: input() },
      { method: 'DELETE', url: `/api/question-sets/${set.id}` },
      { method: 'POST', url: `/api/question-sets/${set.id}/share`, payload: {} },
      { method: 'DELETE', url: `/api/question-sets/${set.id}/share` },
      { method: 'POST', url: `/api/question-sets/${set.id}/copy`, payload: {} },
    ] as const;
    for (const call of calls) expect(failure(await other.call(call)).status).toBe(404);
    expect((await teacher({ method: 'GET', url: `/api/question-sets/${set.id}` })).statusCode).toBe(200);
  });

  it('bad input: 400 with a message, nothing stored', async () => {
    const before = (await list(teacher, '?scope=mine')).total;
    const post = (payload: unknown) => teacher({ method: 'POST', url: '/api/question-sets', payload: payload as object });
    expect(failure(await post(input({ name: '  ' }))).status).toBe(400);
    expect(failure(await post(input({ name: '长'.repeat(41) }))).status).toBe(400);
    expect(failure(await post(input({ questionIds: [] }))).msg).toContain('请至少选择一道题');
    expect(failure(await post(input({ questionIds: [singles[0]!, singles[0]!] }))).msg).toContain('同一道题不能在合集中出现两次');
    expect(failure(await post(input({ questionIds: [999999] }))).msg).toBe('试题不存在或不属于该学科：999999');
    expect(failure(await post(input({ chapterId: 999999 }))).msg).toBe('章节不存在或不属于该学科');
    expect(failure(await post(input({ schoolYearId: other.schoolYearId }))).msg).toBe('学年不存在');
    expect(failure(await post(input({ subjectId: other.subjectId }))).msg).toBe('学科不存在');
    expect(failure(await post({ ...input(), questionIds: 'x' })).status).toBe(400);
    expect(failure(await post(input({ description: '长'.repeat(201) }))).status).toBe(400);
    expect(failure(await teacher({ method: 'GET', url: '/api/question-sets?scope=all' })).status).toBe(400);
    expect(failure(await teacher({ method: 'GET', url: '/api/question-sets/abc' })).status).toBe(400);
    expect((await list(teacher, '?scope=mine')).total).toBe(before);
  });

  it('needs a session', async () => {
    expect((await app().inject({ method: 'GET', url: '/api/question-sets' })).statusCode).toBe(401);
    expect((await app().inject({ method: 'POST', url: '/api/question-sets', payload: input() })).statusCode).toBe(401);
  });
});
