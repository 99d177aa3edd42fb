import { materialPageSchema } from '../../../src/shared/contract/materials';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  paperDetailSchema,
  paperSummaryPageSchema,
  paperSummarySchema,
  questionPageSchema,
  treeSchema,
} from '../../../src/shared/contract/papers';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor, createOtherSchool } from './papers-helper';

const MATH = 1;
const SCHOOL_YEAR = 1;

describe('校本资料 (/api/school-materials, /api/papers/:id/share)', () => {
  const app = useTestApp();
  let teacher: Caller;
  let colleague: Caller;
  let admin: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  let singles: number[];
  let book: { id: number; name: string };
  let chapter: { id: number; name: string };
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
    chapter = { id: tree[0]!.children[0]!.id, name: tree[0]!.children[0]!.name };
    section = { id: tree[0]!.children[0]!.children[0]!.id, name: tree[0]!.children[0]!.children[0]!.name };
  });

  async function save(call: Caller, title: string) {
    const response = await call({
      method: 'POST',
      url: '/api/papers',
      payload: {
        title,
        subjectId: MATH,
        schoolYearId: SCHOOL_YEAR,
        sections: [{ title: '一、单选题', questions: singles.slice(0, 3).map((questionId) => ({ questionId, score: 5 })) }],
      },
    });
    expect(response.statusCode).toBe(200);
    return paperDetailSchema.parse(response.json().data);
  }

  const share = (call: Caller, paperId: number, payload: unknown = {}) =>
    call({ method: 'POST', url: `/api/papers/${paperId}/share`, payload: payload as object });

  async function materials(call: Caller, query = '') {
    const response = await call({ method: 'GET', url: `/api/school-materials${query}` });
    expect(response.statusCode).toBe(200);
    return materialPageSchema.parse(response.json().data);
  }

  it('shares a paper under a chapter; colleagues list it with its author, time and chapter', async () => {
    const paper = await save(teacher, '有理数单元练习');
    expect((await materials(colleague)).list.map((p) => p.id)).not.toContain(paper.id);
    const response = await share(teacher, paper.id, { chapterId: section.id });
    expect(response.statusCode).toBe(200);
    const shared = paperSummarySchema.parse(response.json().data);
    expect(shared.sharedAt).not.toBeNull();
    expect(shared.sharedChapter).toEqual(section);

    const seen = (await materials(colleague)).list.find((p) => p.id === paper.id)!;
    expect(seen).toMatchObject({
      title: '有理数单元练习',
      subject: { id: MATH, name: '数学' },
      createdBy: { name: '王老师' },
      mine: false,
      sharedChapter: section,
      questionCount: 3,
      totalScore: 15,
    });
    // Shown in 我的试卷 too, with its state.
    const mine = paperSummaryPageSchema.parse((await teacher({ method: 'GET', url: '/api/papers' })).json().data);
    expect(mine.list.find((p) => p.id === paper.id)?.sharedAt).toBe(shared.sharedAt);
  });

  it('filters by keyword, subject, school year and chapter (a chapter includes its subchapters)', async () => {
    const filed = await save(teacher, '正数和负数专项');
    const loose = await save(teacher, '期中复习卷');
    await share(teacher, filed.id, { chapterId: section.id });
    await share(teacher, loose.id);
    const ids = async (query: string) => (await materials(colleague, query)).list.map((p) => p.id);
    expect(await ids(`?keyword=${encodeURIComponent('正数')}`)).toEqual([filed.id]);
    expect(await ids(`?chapterId=${book.id}`)).toContain(filed.id);
    expect(await ids(`?chapterId=${chapter.id}`)).toContain(filed.id);
    expect(await ids(`?chapterId=${chapter.id}`)).not.toContain(loose.id);
    expect(await ids(`?subjectId=${MATH}&schoolYearId=${SCHOOL_YEAR}`)).toEqual(expect.arrayContaining([filed.id, loose.id]));
    expect(await ids(`?subjectId=${MATH}&schoolYearId=999999`)).toEqual([]);
    const paged = await materials(colleague, '?pageSize=1');
    expect(paged.list).toHaveLength(1);
    expect(paged.total).toBeGreaterThanOrEqual(3);
    // Newest share first.
    expect(paged.list[0]!.id).toBe(loose.id);
  });

  it('a colleague copies a shared paper into their own papers', async () => {
    const paper = await save(teacher, '绝对值小测');
    await share(teacher, paper.id);
    const response = await colleague({ method: 'POST', url: `/api/papers/${paper.id}/copy`, payload: {} });
    expect(response.statusCode).toBe(200);
    const copy = paperDetailSchema.parse(response.json().data);
    expect(copy.title).toBe('绝对值小测（副本）');
    expect(copy.questionCount).toBe(3);
    const mine = paperSummaryPageSchema.parse((await colleague({ method: 'GET', url: '/api/papers' })).json().data);
    expect(mine.list.find((p) => p.id === copy.id)).toMatchObject({ mine: true, sharedAt: null });
  });

  it('the owner withdraws; a colleague may not remove (403); an admin removes', async () => {
    const paper = await save(teacher, '数轴练习');
    await share(teacher, paper.id);
    expect(failure(await colleague({ method: 'DELETE', url: `/api/papers/${paper.id}/share` }))).toMatchObject({
      status: 403,
      msg: '很抱歉，您暂无该操作权限',
    });
    expect(failure(await share(colleague, paper.id)).status).toBe(403);
    expect((await materials(teacher)).list.map((p) => p.id)).toContain(paper.id);
    expect((await materials(colleague)).canRemoveAny).toBe(false);
    expect((await materials(admin)).canRemoveAny).toBe(true);

    expect((await teacher({ method: 'DELETE', url: `/api/papers/${paper.id}/share` })).statusCode).toBe(200);
    expect((await materials(teacher)).list.map((p) => p.id)).not.toContain(paper.id);
    // The paper itself stays in 我的试卷.
    expect((await teacher({ method: 'GET', url: `/api/papers/${paper.id}` })).statusCode).toBe(200);
    // Withdrawing twice: it is no longer in the library.
    expect(failure(await teacher({ method: 'DELETE', url: `/api/papers/${paper.id}/share` })).status).toBe(404);

    await share(teacher, paper.id);
    expect((await admin({ method: 'DELETE', url: `/api/papers/${paper.id}/share` })).statusCode).toBe(200);
    expect((await materials(colleague)).list.map((p) => p.id)).not.toContain(paper.id);
  });

  it("another school never sees, copies, shares or removes this school's materials (404)", async () => {
    const paper = await save(teacher, '相反数练习');
    await share(teacher, paper.id);
    expect((await materials(other.call)).list.map((p) => p.id)).not.toContain(paper.id);
    expect(failure(await other.call({ method: 'DELETE', url: `/api/papers/${paper.id}/share` })).status).toBe(404);
    expect(failure(await share(other.call, paper.id)).status).toBe(404);
    expect(failure(await other.call({ method: 'POST', url: `/api/papers/${paper.id}/copy`, payload: {} })).status).toBe(404);
    // A chapter of this school's subject does not reach across either: filtering by it finds nothing there.
    expect((await materials(other.call, `?chapterId=${book.id}`)).list).toEqual([]);
  });

  it('bad input: 400 with a message and nothing changed', async () => {
    const paper = await save(teacher, '倒数练习');
    const unknownChapter = failure(await share(teacher, paper.id, { chapterId: 999999 }));
    expect(unknownChapter).toMatchObject({ status: 400, msg: '章节不存在或不属于该试卷的学科' });
    expect(failure(await share(teacher, paper.id, { chapterId: 'x' })).status).toBe(400);
    expect(failure(await share(teacher, paper.id, { chapterId: -1 })).status).toBe(400);
    expect((await materials(teacher)).list.map((p) => p.id)).not.toContain(paper.id);
    expect(failure(await teacher({ method: 'GET', url: '/api/school-materials?chapterId=abc' })).status).toBe(400);
    expect(failure(await teacher({ method: 'GET', url: '/api/school-materials?pageSize=1000' })).status).toBe(400);
    expect(failure(await teacher({ method: 'GET', url: `/api/school-materials?keyword=${'长'.repeat(61)}` })).status).toBe(400);
    expect(failure(await teacher({ method: 'POST', url: '/api/papers/abc/share', payload: {} })).status).toBe(400);
  });

  it('needs a session', async () => {
    expect((await app().inject({ method: 'GET', url: '/api/school-materials' })).statusCode).toBe(401);
  });
});
