import { beforeAll, describe, expect, it } from 'vitest';
import {
  paperDetailSchema,
  paperDraftSchema,
  paperSummaryPageSchema,
  questionPageSchema,
  type PaperSummary,
} from '../../../src/shared/contract/papers';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor, createOtherSchool } from './papers-helper';

const MATH = 1;
const SCHOOL_YEAR = 1; // 2026级 (初一)

describe('GET /api/papers (我的试卷)', () => {
  const app = useTestApp();
  let teacher: Caller;
  let director: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  let singles: number[];

  beforeAll(async () => {
    teacher = await callerFor(app(), 'teacher');
    director = await callerFor(app(), 'director');
    other = await createOtherSchool(app());
    singles = questionPageSchema
      .parse((await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&type=single&pageSize=10` })).json().data)
      .list.map((q) => q.id);
  });

  async function save(call: Caller, title: string) {
    const response = await call({
      method: 'POST',
      url: '/api/papers',
      payload: {
        title,
        subjectId: MATH,
        schoolYearId: SCHOOL_YEAR,
        sections: [{ title: '一、单选题', questions: singles.slice(0, 3).map((questionId) => ({ questionId, score: 4 })) }],
      },
    });
    return paperDetailSchema.parse(response.json().data);
  }

  async function list(call: Caller, query = '') {
    const response = await call({ method: 'GET', url: `/api/papers${query}` });
    expect(response.statusCode).toBe(200);
    return paperSummaryPageSchema.parse(response.json().data);
  }

  it('lists my papers newest first, with subject, school year, totals and use', async () => {
    const first = await save(teacher, '分式方程专项（未布置）');
    const second = await save(teacher, '整式的加减小测');
    const page = await list(teacher);
    expect(page.list.slice(0, 2).map((p) => p.id)).toEqual([second.id, first.id]);
    const row = page.list.find((p) => p.id === first.id)!;
    expect(row).toMatchObject<Partial<PaperSummary>>({
      title: '分式方程专项（未布置）',
      subject: { id: MATH, name: '数学' },
      schoolYear: { id: SCHOOL_YEAR, name: '2026级 (初一)' },
      totalScore: 12,
      questionCount: 3,
      mine: true,
      homeworkCount: 0,
      createdBy: { id: expect.any(Number) as number, name: '王老师' },
    });
    // The seeded papers of 数学 are the teacher's and are assigned as homework.
    expect(page.list.some((p) => p.homeworkCount > 0)).toBe(true);
    expect(page.list.every((p) => p.mine)).toBe(true);
  });

  it('searches titles (case-insensitive, % and _ taken literally) and pages', async () => {
    await save(teacher, '100%_挑战卷');
    const found = await list(teacher, `?keyword=${encodeURIComponent('分式方程专项')}`);
    expect(found.list.map((p) => p.title)).toEqual(['分式方程专项（未布置）']);
    const literal = await list(teacher, `?keyword=${encodeURIComponent('%_')}`);
    expect(literal.list.map((p) => p.title)).toEqual(['100%_挑战卷']);
    const none = await list(teacher, `?keyword=${encodeURIComponent('不存在的标题')}`);
    expect(none).toMatchObject({ list: [], total: 0 });
    const all = await list(teacher);
    const paged = await list(teacher, '?page=2&pageSize=2');
    expect(paged).toMatchObject({ total: all.total, page: 2, pageSize: 2 });
    expect(paged.list.map((p) => p.id)).toEqual(all.list.slice(2, 4).map((p) => p.id));
  });

  it('lists only my own papers by default, and the whole school’s with scope=school', async () => {
    const theirs = await save(director, '李主任的试卷');
    expect((await list(teacher, '?pageSize=100')).list.some((p) => p.id === theirs.id)).toBe(false);
    const school = await list(teacher, '?scope=school&pageSize=100');
    const row = school.list.find((p) => p.id === theirs.id);
    expect(row).toMatchObject({ mine: false, createdBy: { name: '李主任' } });
  });

  it('never lists another school’s papers, and lists nothing of mine to them', async () => {
    const mine = await list(teacher, '?scope=school&pageSize=100');
    const theirs = await list(other.call, '?scope=school&pageSize=100');
    expect(theirs).toMatchObject({ list: [], total: 0 });
    expect(mine.total).toBeGreaterThan(0);
  });

  it.each([
    ['page=0', '?page=0'],
    ['pageSize=101', '?pageSize=101'],
    ['an unknown scope', '?scope=all'],
    ['a subject id that is not a number', '?subjectId=abc'],
    ['a school year id beyond int4', '?schoolYearId=3000000000'],
    ['a keyword over 60 characters', `?keyword=${'题'.repeat(61)}`],
  ])('answers 400 for %s', async (_name, query) => {
    expect(failure(await teacher({ method: 'GET', url: `/api/papers${query}` })).status).toBe(400);
  });

  it('answers 403 to a user without a school and 401 without a login', async () => {
    const newbie = await callerFor(app(), 'newbie');
    expect(failure(await newbie({ method: 'GET', url: '/api/papers' })).status).toBe(403);
    expect((await app().inject({ method: 'GET', url: '/api/papers' })).statusCode).toBe(401);
  });

  it('lets only the author delete a paper (403 for a colleague, 404 for another school)', async () => {
    const paper = await save(teacher, '只有我能删');
    expect(failure(await director({ method: 'DELETE', url: `/api/papers/${paper.id}` })).status).toBe(403);
    expect(failure(await other.call({ method: 'DELETE', url: `/api/papers/${paper.id}` })).status).toBe(404);
    expect(failure(await teacher({ method: 'DELETE', url: '/api/papers/2147483647' })).status).toBe(404);
    expect((await teacher({ method: 'DELETE', url: `/api/papers/${paper.id}` })).statusCode).toBe(200);
    expect((await list(teacher, `?keyword=${encodeURIComponent('只有我能删')}`)).total).toBe(0);
  });
});

describe('auto-compose draws from the school year’s textbooks by default', () => {
  const app = useTestApp();
  let teacher: Caller;
  let gradeOf: Map<number, string>;

  beforeAll(async () => {
    teacher = await callerFor(app(), 'teacher');
    const tree = (await teacher({ method: 'GET', url: `/api/subjects/${MATH}/chapters` })).json().data as Tree[];
    gradeOf = new Map();
    type Tree = { id: number; name: string; children: Tree[] };
    const walk = (node: Tree, book: string) => {
      gradeOf.set(node.id, book);
      for (const child of node.children) walk(child, book);
    };
    for (const book of tree) walk(book, book.name);
  });

  const compose = async (extra: Record<string, unknown> = {}) => {
    const response = await teacher({
      method: 'POST',
      url: '/api/papers/auto-compose',
      payload: { subjectId: MATH, schoolYearId: SCHOOL_YEAR, rules: [{ type: 'single', count: 30, score: 3 }], ...extra },
    });
    expect(response.statusCode).toBe(200);
    return paperDraftSchema.parse(response.json().data);
  };

  it('takes only 七年级 questions for 2026级 (初一) when no chapter is chosen, and says so', async () => {
    for (let round = 0; round < 3; round += 1) {
      const draft = await compose();
      expect(draft.drawnFrom).toBe('七年级上册、七年级下册');
      const books = draft.sections[0]!.questions.flatMap((q) => q.question.chapterIds.map((id) => gradeOf.get(id)));
      expect(books.length).toBeGreaterThan(0);
      expect(books.every((book) => book?.startsWith('七年级'))).toBe(true);
    }
  });

  it('draws from the whole subject when asked', async () => {
    const draft = await compose({ range: 'subject', rules: [{ type: 'single', count: 50, score: 1 }] });
    expect(draft.drawnFrom).toBe('数学全部章节');
    const books = new Set(draft.sections[0]!.questions.flatMap((q) => q.question.chapterIds.map((id) => gradeOf.get(id))));
    expect([...books].some((book) => !book?.startsWith('七年级'))).toBe(true);
  });

  it('rejects an unknown range (400)', async () => {
    const response = await teacher({
      method: 'POST',
      url: '/api/papers/auto-compose',
      payload: { subjectId: MATH, schoolYearId: SCHOOL_YEAR, range: 'grade', rules: [{ type: 'single', count: 1, score: 3 }] },
    });
    expect(failure(response).status).toBe(400);
  });
});
