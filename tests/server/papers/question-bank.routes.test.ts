import { beforeAll, describe, expect, it } from 'vitest';
import { questionPageSchema, questionSchema, subjectListSchema, treeSchema } from '../../../src/shared/contract/papers';
import { questionBanks } from '../../../server/db/seed-data/question-bank';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor, createOtherSchool } from './papers-helper';

const MATH = 1;
const mathBankSize = questionBanks.find((bank) => bank.subject === '数学')!.questions.length;

const ownQuestion = {
  subjectId: MATH,
  type: 'single',
  stem: '<p>下列各数中，最小的是</p>',
  options: ['$-3$', '$0$', '$1$', '$-1$'],
  answer: ['A'],
  analysis: '负数小于 0，$-3<-1$。',
  difficulty: 1,
  source: '校本',
};

describe('the question bank endpoints', () => {
  const app = useTestApp();
  let teacher: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;

  beforeAll(async () => {
    teacher = await callerFor(app(), 'teacher');
    other = await createOtherSchool(app());
  });

  it('answers 401 without a login', async () => {
    const response = await app().inject({ method: 'GET', url: '/api/subjects' });
    expect(response.statusCode).toBe(401);
  });

  it('answers 403 to a user without a school', async () => {
    const newbie = await callerFor(app(), 'newbie');
    expect(failure(await newbie({ method: 'GET', url: '/api/subjects' })).status).toBe(403);
  });

  it("lists the school's subjects in order", async () => {
    const subjects = subjectListSchema.parse((await teacher({ method: 'GET', url: '/api/subjects' })).json().data);
    expect(subjects.map((s) => s.name).slice(0, 3)).toEqual(['数学', '语文', '英语']);
    expect(subjects).toHaveLength(9);
  });

  it('answers the chapter and knowledge-point trees of a subject', async () => {
    const chapters = treeSchema.parse((await teacher({ method: 'GET', url: `/api/subjects/${MATH}/chapters` })).json().data);
    expect(chapters[0]?.name).toBe('七年级上册');
    expect(chapters[0]?.children[0]?.name).toBe('第一章 有理数');
    expect(chapters[0]?.children[0]?.children[0]?.name).toBe('1.1 正数和负数');
    const points = treeSchema.parse(
      (await teacher({ method: 'GET', url: `/api/subjects/${MATH}/knowledge-points` })).json().data,
    );
    expect(points.map((p) => p.name)).toContain('数与代数');
  });

  it("answers 404 for another school's subject tree", async () => {
    expect(failure(await other.call({ method: 'GET', url: `/api/subjects/${MATH}/chapters` })).status).toBe(404);
  });

  it('pages through the shared bank with filters', async () => {
    const all = questionPageSchema.parse(
      (await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&pageSize=10` })).json().data,
    );
    expect(all.total).toBe(mathBankSize);
    expect(all.list).toHaveLength(10);
    expect(all.list.every((q) => q.shared && q.subjectId === MATH)).toBe(true);

    const page2 = questionPageSchema.parse(
      (await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&pageSize=10&page=2` })).json().data,
    );
    expect(page2.list[0]?.id).not.toBe(all.list[0]?.id);

    const hard = questionPageSchema.parse(
      (await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&type=single&difficulty=3&pageSize=100` })).json()
        .data,
    );
    expect(hard.total).toBeGreaterThan(0);
    expect(hard.list.every((q) => q.type === 'single' && q.difficulty === 3)).toBe(true);

    const keyword = questionPageSchema.parse(
      (await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&keyword=${encodeURIComponent('数轴')}` })).json()
        .data,
    );
    expect(keyword.total).toBeGreaterThan(0);
    expect(keyword.list.every((q) => q.stem.includes('数轴'))).toBe(true);
  });

  it('filters by a chapter including its sub-chapters, and by a knowledge point', async () => {
    const chapters = treeSchema.parse((await teacher({ method: 'GET', url: `/api/subjects/${MATH}/chapters` })).json().data);
    const unit = chapters[0]!.children[0]!; // 第一章 有理数
    const leafIds = unit.children.map((c) => c.id);
    const page = questionPageSchema.parse(
      (await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&chapterId=${unit.id}&pageSize=100` })).json().data,
    );
    expect(page.total).toBeGreaterThan(5);
    expect(page.list.every((q) => q.chapterIds.some((id) => leafIds.includes(id)))).toBe(true);

    const kpId = page.list[0]!.knowledgePointIds[0]!;
    const byPoint = questionPageSchema.parse(
      (await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&knowledgePointId=${kpId}&pageSize=100` })).json()
        .data,
    );
    expect(byPoint.list.every((q) => q.knowledgePointIds.includes(kpId))).toBe(true);
  });

  it('rejects a bad query with 400', async () => {
    expect(failure(await teacher({ method: 'GET', url: '/api/questions' })).status).toBe(400);
    expect(failure(await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&difficulty=9` })).msg).toContain('难度');
    expect(failure(await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&pageSize=1000` })).status).toBe(400);
  });

  it('lets another school read the shared bank through its own subject of the same name', async () => {
    const page = questionPageSchema.parse(
      (await other.call({ method: 'GET', url: `/api/questions?subjectId=${other.subjectId}&pageSize=1` })).json().data,
    );
    expect(page.total).toBe(mathBankSize);
    const tree = treeSchema.parse(
      (await other.call({ method: 'GET', url: `/api/subjects/${other.subjectId}/chapters` })).json().data,
    );
    expect(tree[0]?.name).toBe('七年级上册');
  });

  describe('writing questions', () => {
    let ownId: number;

    it('creates a school question with chapters and knowledge points', async () => {
      const chapters = treeSchema.parse((await teacher({ method: 'GET', url: `/api/subjects/${MATH}/chapters` })).json().data);
      const chapterId = chapters[0]!.children[0]!.children[0]!.id;
      const response = await teacher({
        method: 'POST',
        url: '/api/questions',
        payload: { ...ownQuestion, chapterIds: [chapterId] },
      });
      expect(response.statusCode).toBe(200);
      const question = questionSchema.parse(response.json().data);
      expect(question).toMatchObject({ shared: false, type: 'single', answer: ['A'], chapterIds: [chapterId], usageCount: 0 });
      ownId = question.id;
    });

    it("shows the school's own question to the school, first, and not to another school", async () => {
      const mine = questionPageSchema.parse(
        (await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&pageSize=1` })).json().data,
      );
      expect(mine.total).toBe(mathBankSize + 1);
      expect(mine.list[0]?.id).toBe(ownId);
      const own = questionPageSchema.parse(
        (await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&scope=own` })).json().data,
      );
      expect(own.list.map((q) => q.id)).toEqual([ownId]);
      const theirs = questionPageSchema.parse(
        (await other.call({ method: 'GET', url: `/api/questions?subjectId=${other.subjectId}&scope=own` })).json().data,
      );
      expect(theirs.total).toBe(0);
    });

    it.each([
      ['a single choice with one option', { options: ['只有一个'] }, '选择题需要 2 到 8 个选项'],
      ['a single choice answered with a letter past the options', { answer: ['E'] }, '单选题答案必须是一个选项字母'],
      [
        'a multiple choice with one answer',
        { type: 'multiple', answer: ['A'] },
        '多选题答案必须是至少两个按序排列的不同选项字母',
      ],
      ['a judge question with options', { type: 'judge', answer: ['对'] }, '判断题不能有选项'],
      ['a judge question answered 是', { type: 'judge', options: [], answer: ['是'] }, '判断题答案必须是“对”或“错”'],
      [
        'a blank question whose answers do not match its blanks',
        { type: 'blank', options: [], stem: '1+1=______，2+2=______', answer: ['2'] },
        '填空题有 2 个空，却有 1 个答案',
      ],
      ['a difficulty of 6', { difficulty: 6 }, '难度必须是 1 到 5 的整数'],
      ['an empty stem', { stem: '   ' }, '题干不能为空'],
    ])('rejects %s with a 400 saying why', async (_name, change, message) => {
      const response = await teacher({ method: 'POST', url: '/api/questions', payload: { ...ownQuestion, ...change } });
      const { status, msg } = failure(response);
      expect(status).toBe(400);
      expect(msg).toContain(message);
    });

    it('rejects a chapter of another subject', async () => {
      const chinese = treeSchema.parse((await teacher({ method: 'GET', url: '/api/subjects/2/chapters' })).json().data);
      const response = await teacher({
        method: 'POST',
        url: '/api/questions',
        payload: { ...ownQuestion, chapterIds: [chinese[0]!.id] },
      });
      expect(failure(response)).toEqual({ status: 400, msg: '章节不属于该学科' });
    });

    it('updates its own question', async () => {
      const response = await teacher({
        method: 'PUT',
        url: `/api/questions/${ownId}`,
        payload: { ...ownQuestion, type: 'judge', stem: '$-3$ 是最小的整数。', options: [], answer: ['错'], difficulty: 2 },
      });
      expect(response.statusCode).toBe(200);
      expect(questionSchema.parse(response.json().data)).toMatchObject({
        id: ownId,
        type: 'judge',
        answer: ['错'],
        difficulty: 2,
      });
    });

    it("refuses to change or delete a shared question (403) or another school's question (404)", async () => {
      const shared = questionPageSchema.parse(
        (await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&scope=shared&pageSize=1` })).json().data,
      ).list[0]!;
      expect(failure(await teacher({ method: 'PUT', url: `/api/questions/${shared.id}`, payload: ownQuestion })).status).toBe(
        403,
      );
      expect(failure(await teacher({ method: 'DELETE', url: `/api/questions/${shared.id}` })).status).toBe(403);
      const payload = { ...ownQuestion, subjectId: other.subjectId };
      expect(failure(await other.call({ method: 'PUT', url: `/api/questions/${ownId}`, payload })).status).toBe(404);
      expect(failure(await other.call({ method: 'DELETE', url: `/api/questions/${ownId}` })).status).toBe(404);
    });

    it("lets a colleague read the school's question but not change or delete it; its author and the school's creator may (canEdit)", async () => {
      const ownPage = async (caller: Caller) =>
        questionPageSchema.parse((await caller({ method: 'GET', url: `/api/questions?subjectId=${MATH}&scope=own` })).json().data)
          .list;
      const colleague = await callerFor(app(), 'director');
      const creator = await callerFor(app(), 'creator');
      expect((await ownPage(teacher)).find((q) => q.id === ownId)?.canEdit).toBe(true);
      expect((await ownPage(colleague)).find((q) => q.id === ownId)?.canEdit).toBe(false);
      expect((await ownPage(creator)).find((q) => q.id === ownId)?.canEdit).toBe(true);
      const payload = { ...ownQuestion, stem: '同事改过的题干' };
      expect(failure(await colleague({ method: 'PUT', url: `/api/questions/${ownId}`, payload })).status).toBe(403);
      expect(failure(await colleague({ method: 'DELETE', url: `/api/questions/${ownId}` })).status).toBe(403);
      const edited = await creator({ method: 'PUT', url: `/api/questions/${ownId}`, payload: { ...ownQuestion, difficulty: 3 } });
      expect(questionSchema.parse(edited.json().data)).toMatchObject({ id: ownId, difficulty: 3 });
      const shared = questionPageSchema.parse(
        (await creator({ method: 'GET', url: `/api/questions?subjectId=${MATH}&scope=shared&pageSize=1` })).json().data,
      ).list[0]!;
      expect(shared.canEdit).toBe(false);
    });

    it('deletes its own question', async () => {
      expect((await teacher({ method: 'DELETE', url: `/api/questions/${ownId}` })).statusCode).toBe(200);
      expect(failure(await teacher({ method: 'DELETE', url: `/api/questions/${ownId}` })).status).toBe(404);
    });
  });
});
