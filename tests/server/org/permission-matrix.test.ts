/**
 * The permission matrix: every endpoint of the route table below, called by each kind of caller, answers
 * the expected status. Resources a call changes are made fresh for each call by the row's setup.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/shared/contract/envelope';
import {
  homeworkSchema,
  paperDetailSchema,
  questionPageSchema,
  questionSchema,
  scannableHomeworkSchema,
} from '../../../src/shared/contract/papers';
import { invitationSchema } from '../../../src/shared/contract/org';
import { MARKING_MESSAGES } from '../../../src/shared/contract/marking';
import { classListSchema } from '../../../src/shared/contract/system';
import { questionSetDetailSchema } from '../../../src/shared/contract/question-sets';
import { questionImageSchema } from '../../../src/shared/contract/question-images';
import { failure } from '../accounts-helper';
import { eq } from 'drizzle-orm';
import { students } from '../../../server/db/schema';
import { useTestApp } from '../helper';
import { type Caller, callerFor, createOtherSchool, multipartFile } from '../papers/papers-helper';
import { addMember, demoSchool } from './org-helper';

const CALLERS = [
  'creator',
  'admin',
  'director',
  'classTeacher',
  'subjectTeacher',
  'otherTeacher',
  'otherSchool',
  'none',
] as const;
const MARKING_403: string[] = [
  MARKING_MESSAGES.notOwner,
  MARKING_MESSAGES.notOwnerClose,
  MARKING_MESSAGES.notArbiter,
  MARKING_MESSAGES.notAssigned,
];
type CallerKind = (typeof CALLERS)[number];
type Expected = Record<CallerKind, number>;

/** Any member reads; another school finds nothing; no session is 401. */
const READ: Expected = {
  creator: 200,
  admin: 200,
  director: 200,
  classTeacher: 200,
  subjectTeacher: 200,
  otherTeacher: 200,
  otherSchool: 404,
  none: 401,
};
/** Creators and admins only. */
const MANAGE: Expected = { ...READ, director: 403, classTeacher: 403, subjectTeacher: 403, otherTeacher: 403 };
/**
 * Learning analysis of maths in the third class: who teaches it (the subject teacher), the school's
 * managers and the school year's director; a class the caller does not see is not found (404), as in
 * another school.
 */
const ANALYSIS: Expected = { ...READ, classTeacher: 404, otherTeacher: 404 };
/** The owner (the subject teacher made it) and admins. */
const OWNED: Expected = { ...MANAGE, subjectTeacher: 200 };
/**
 * Working on the owner's homework for the third class (scanning, absences): the owner (who also teaches
 * maths there), admins, the director of its school year; not the class teacher of another class.
 */
const WORK: Expected = { ...OWNED, director: 200 };

type Ctx = {
  app: FastifyInstance;
  school: Awaited<ReturnType<typeof demoSchool>>;
  owner: Caller;
  creator: Caller;
  questionIds: number[];
  uniq: () => string;
};

type Row = {
  name: string;
  expected: Expected;
  /** The request, built fresh for each caller (after any setup it needs). */
  request: (ctx: Ctx) => Promise<InjectOptions> | InjectOptions;
};

async function ownedPaper(ctx: Ctx) {
  const response = await ctx.owner({ method: 'POST', url: '/api/papers', payload: paperInput(ctx) });
  return paperDetailSchema.parse(response.json().data).id;
}

function paperInput(ctx: Ctx) {
  return {
    title: `矩阵卷${ctx.uniq()}`,
    subjectId: ctx.school.mathId,
    schoolYearId: ctx.school.schoolYearId,
    paperSize: 'A4',
    sections: [{ title: '一、单选题', questions: ctx.questionIds.slice(0, 2).map((questionId) => ({ questionId, score: 5 })) }],
  };
}

function setInput(ctx: Ctx) {
  return {
    name: `矩阵合集${ctx.uniq()}`,
    subjectId: ctx.school.mathId,
    schoolYearId: ctx.school.schoolYearId,
    questionIds: ctx.questionIds.slice(0, 2),
  };
}

/** A question set of the owner's, shared to 校本资料 unless told otherwise. */
async function ownedSet(ctx: Ctx, shared = true) {
  const response = await ctx.owner({ method: 'POST', url: '/api/question-sets', payload: { ...setInput(ctx), shared } });
  return questionSetDetailSchema.parse(response.json().data).id;
}

const questionInput = (ctx: Ctx) => ({
  subjectId: ctx.school.mathId,
  type: 'blank',
  stem: `<p>1 + 1 = ______ (${ctx.uniq()})</p>`,
  answer: ['2'],
  difficulty: 1,
  chapterIds: [],
  knowledgePointIds: [],
});

async function ownedQuestion(ctx: Ctx) {
  const response = await ctx.owner({ method: 'POST', url: '/api/questions', payload: questionInput(ctx) });
  return questionSchema.parse(response.json().data).id;
}

/** A 1x1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A picture the owner uploaded for a 本校题 (no question uses it): its address. */
async function ownedImage(ctx: Ctx) {
  const response = await ctx.owner({
    method: 'POST',
    url: '/api/question-images',
    ...multipartFile('file', 'a.png', PIXEL, 'image/png'),
  });
  return questionImageSchema.parse(response.json().data).src;
}

async function ownedHomework(ctx: Ctx, manual = false) {
  const paperId = manual ? await ownedManualPaper(ctx) : await ownedPaper(ctx);
  const response = await ctx.owner({
    method: 'POST',
    url: '/api/homework',
    payload: { paperId, classIds: [ctx.school.classIds[2]], startDate: '2026-03-02', dueDate: '2026-03-09' },
  });
  return homeworkSchema.parse(response.json().data).id;
}

/** A paper of one fill-in-the-blank question (marked by hand). */
async function ownedManualPaper(ctx: Ctx) {
  const questionId = await ownedQuestion(ctx);
  const payload = { ...paperInput(ctx), sections: [{ title: '一、填空题', questions: [{ questionId, score: 5 }] }] };
  const response = await ctx.owner({ method: 'POST', url: '/api/papers', payload });
  return paperDetailSchema.parse(response.json().data).id;
}

async function firstStudentOf(ctx: Ctx, classId: number) {
  const rows = await ctx.app.database.db.select({ id: students.id }).from(students).where(eq(students.classId, classId)).limit(1);
  return rows[0]!.id;
}

async function freshMember(ctx: Ctx) {
  return addMember(ctx.app, `member${ctx.uniq()}`, ctx.school.orgId);
}

async function freshInvitation(ctx: Ctx) {
  const response = await ctx.creator({ method: 'POST', url: `/api/org/schools/${ctx.school.orgId}/invitations`, payload: {} });
  return invitationSchema.parse(response.json().data).id;
}

const org = (ctx: Ctx) => `/api/org/schools/${ctx.school.orgId}`;

const analysisOfThirdClass = (c: Ctx) => `classId=${c.school.classIds[2]}&subjectId=${c.school.mathId}`;

const ROUTES: Row[] = [
  // ---- learning analysis ----
  {
    name: 'GET /api/analysis/class',
    expected: ANALYSIS,
    request: (c) => ({ method: 'GET', url: `/api/analysis/class?${analysisOfThirdClass(c)}` }),
  },
  {
    // 学生学情's picker: the same scope as the class view.
    name: 'GET /api/analysis/class/students',
    expected: ANALYSIS,
    request: (c) => ({ method: 'GET', url: `/api/analysis/class/students?${analysisOfThirdClass(c)}` }),
  },
  // ---- papers, questions, homework ----
  {
    name: 'POST /api/papers',
    expected: { ...READ, otherSchool: 400 },
    request: (c) => ({ method: 'POST', url: '/api/papers', payload: paperInput(c) }),
  },
  {
    name: 'GET /api/papers/:id',
    expected: READ,
    request: async (c) => ({ method: 'GET', url: `/api/papers/${await ownedPaper(c)}` }),
  },
  {
    name: 'PUT /api/papers/:id',
    expected: OWNED,
    request: async (c) => ({ method: 'PUT', url: `/api/papers/${await ownedPaper(c)}`, payload: paperInput(c) }),
  },
  {
    name: 'DELETE /api/papers/:id',
    expected: OWNED,
    request: async (c) => ({ method: 'DELETE', url: `/api/papers/${await ownedPaper(c)}` }),
  },
  {
    name: 'POST /api/papers/:id/copy',
    expected: READ,
    request: async (c) => ({ method: 'POST', url: `/api/papers/${await ownedPaper(c)}/copy` }),
  },
  {
    // Another school lists its own (empty) library.
    name: 'GET /api/school-materials',
    expected: { ...READ, otherSchool: 200 },
    request: () => ({ method: 'GET', url: '/api/school-materials' }),
  },
  {
    // Only the owner shares their paper, not even an admin on their behalf.
    name: 'POST /api/papers/:id/share',
    expected: { ...OWNED, creator: 403, admin: 403 },
    request: async (c) => ({ method: 'POST', url: `/api/papers/${await ownedPaper(c)}/share`, payload: {} }),
  },
  {
    name: 'DELETE /api/papers/:id/share',
    expected: OWNED,
    request: async (c) => {
      const id = await ownedPaper(c);
      await c.owner({ method: 'POST', url: `/api/papers/${id}/share`, payload: {} });
      return { method: 'DELETE', url: `/api/papers/${id}/share` };
    },
  },
  {
    name: 'GET /api/question-sets',
    expected: { ...READ, otherSchool: 200 },
    request: () => ({ method: 'GET', url: '/api/question-sets' }),
  },
  {
    name: 'POST /api/question-sets',
    expected: { ...READ, otherSchool: 400 },
    request: (c) => ({ method: 'POST', url: '/api/question-sets', payload: setInput(c) }),
  },
  {
    name: 'GET /api/question-sets/:id',
    expected: READ,
    request: async (c) => ({ method: 'GET', url: `/api/question-sets/${await ownedSet(c)}` }),
  },
  {
    name: 'PUT /api/question-sets/:id',
    expected: OWNED,
    request: async (c) => ({ method: 'PUT', url: `/api/question-sets/${await ownedSet(c)}`, payload: setInput(c) }),
  },
  {
    name: 'DELETE /api/question-sets/:id',
    expected: OWNED,
    request: async (c) => ({ method: 'DELETE', url: `/api/question-sets/${await ownedSet(c)}` }),
  },
  {
    // Only the owner shares (a set of theirs made unshared here), not even an admin on their behalf.
    name: 'POST /api/question-sets/:id/share',
    expected: { ...OWNED, creator: 403, admin: 403, director: 404, classTeacher: 404, otherTeacher: 404 },
    request: async (c) => ({ method: 'POST', url: `/api/question-sets/${await ownedSet(c, false)}/share`, payload: {} }),
  },
  {
    name: 'DELETE /api/question-sets/:id/share',
    expected: OWNED,
    request: async (c) => ({ method: 'DELETE', url: `/api/question-sets/${await ownedSet(c)}/share` }),
  },
  {
    name: 'POST /api/question-sets/:id/copy',
    expected: READ,
    request: async (c) => ({ method: 'POST', url: `/api/question-sets/${await ownedSet(c)}/copy`, payload: {} }),
  },
  {
    name: 'POST /api/papers/:id/docx',
    expected: READ,
    request: async (c) => ({ method: 'POST', url: `/api/papers/${await ownedPaper(c)}/docx`, payload: {} }),
  },
  {
    name: 'GET /api/questions',
    expected: READ,
    request: (c) => ({ method: 'GET', url: `/api/questions?subjectId=${c.school.mathId}&pageSize=5` }),
  },
  {
    name: 'POST /api/questions',
    expected: { ...READ, otherSchool: 400 },
    request: (c) => ({ method: 'POST', url: '/api/questions', payload: questionInput(c) }),
  },
  {
    name: 'PUT /api/questions/:id',
    expected: OWNED,
    request: async (c) => ({ method: 'PUT', url: `/api/questions/${await ownedQuestion(c)}`, payload: questionInput(c) }),
  },
  {
    name: 'DELETE /api/questions/:id',
    expected: OWNED,
    request: async (c) => ({ method: 'DELETE', url: `/api/questions/${await ownedQuestion(c)}` }),
  },
  {
    name: 'POST /api/question-images',
    // Another school's teacher uploads for their own school (tested in question-images.routes.test.ts).
    expected: { ...READ, otherSchool: 200 },
    request: () => ({ method: 'POST', url: '/api/question-images', ...multipartFile('file', 'a.png', PIXEL, 'image/png') }),
  },
  {
    name: 'GET /api/question-images/:orgId/:name',
    expected: READ,
    request: async (c) => ({ method: 'GET', url: await ownedImage(c) }),
  },
  {
    name: 'DELETE /api/question-images/:orgId/:name',
    expected: READ,
    request: async (c) => ({ method: 'DELETE', url: await ownedImage(c) }),
  },
  {
    name: 'GET /api/homework/:id',
    expected: READ,
    request: async (c) => ({ method: 'GET', url: `/api/homework/${await ownedHomework(c)}` }),
  },
  {
    name: 'PATCH /api/homework/:id/status',
    expected: OWNED,
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/homework/${await ownedHomework(c)}/status`,
      payload: { status: 'assigned' },
    }),
  },
  {
    // Assigning to the third class: teachers of maths there, the director of its year, admins.
    name: 'POST /api/homework',
    expected: { ...WORK, otherSchool: 400 },
    request: async (c) => ({
      method: 'POST',
      url: '/api/homework',
      payload: { paperId: await ownedPaper(c), classIds: [c.school.classIds[2]], startDate: '2026-03-02', dueDate: '2026-03-09' },
    }),
  },
  {
    // The class teacher of the second class may assign to it, not to the third.
    name: "POST /api/homework (to the class teacher's class)",
    expected: { ...MANAGE, director: 200, classTeacher: 200, otherSchool: 400 },
    request: async (c) => ({
      method: 'POST',
      url: '/api/homework',
      payload: { paperId: await ownedPaper(c), classIds: [c.school.classIds[1]], startDate: '2026-03-02', dueDate: '2026-03-09' },
    }),
  },
  {
    // Every member may ask; the list differs by caller (see the test below), another school finds no paper.
    name: 'GET /api/homework/assignable-classes',
    expected: READ,
    request: async (c) => ({ method: 'GET', url: `/api/homework/assignable-classes?paperId=${await ownedPaper(c)}` }),
  },
  // ---- scanning and marking ----
  {
    // Every member may ask (another school's teacher gets their own school's list); see the test below.
    name: 'GET /api/homework/scannable',
    expected: { ...READ, otherSchool: 200 },
    request: () => ({ method: 'GET', url: '/api/homework/scannable' }),
  },
  {
    name: 'POST /api/scan/batches',
    expected: WORK,
    request: async (c) => ({
      method: 'POST',
      url: '/api/scan/batches',
      payload: { homeworkId: await ownedHomework(c), stationName: '矩阵扫描站' },
    }),
  },
  {
    name: 'GET /api/marking/homework/:id',
    expected: READ,
    request: async (c) => ({ method: 'GET', url: `/api/marking/homework/${await ownedHomework(c)}` }),
  },
  {
    name: 'PUT /api/marking/homework/:id/assignments',
    expected: OWNED,
    request: async (c) => ({
      method: 'PUT',
      url: `/api/marking/homework/${await ownedHomework(c, true)}/assignments`,
      payload: { questions: [{ questionNo: 1, userIds: [], doubleMarking: false, tolerance: 0 }] },
    }),
  },
  {
    // Unassigned: the owner marks; an admin may take third markings.
    name: 'POST /api/marking/homework/:id/questions/:no/next',
    expected: OWNED,
    request: async (c) => ({
      method: 'POST',
      url: `/api/marking/homework/${await ownedHomework(c, true)}/questions/1/next`,
      payload: {},
    }),
  },
  {
    name: 'PUT /api/marking/homework/:id/students/:studentId/absence',
    expected: WORK,
    request: async (c) => ({
      method: 'PUT',
      url: `/api/marking/homework/${await ownedHomework(c)}/students/${await firstStudentOf(c, c.school.classIds[2]!)}/absence`,
      payload: { absent: true },
    }),
  },
  {
    name: 'PUT /api/marking/homework/:id/closure',
    expected: OWNED,
    request: async (c) => ({
      method: 'PUT',
      url: `/api/marking/homework/${await ownedHomework(c)}/closure`,
      payload: { closed: true },
    }),
  },
  {
    name: 'GET /api/marking/homework/:id/arbitration',
    expected: OWNED,
    request: async (c) => ({ method: 'GET', url: `/api/marking/homework/${await ownedHomework(c)}/arbitration` }),
  },
  // ---- schools ----
  { name: 'GET /api/org/schools/:orgId', expected: READ, request: (c) => ({ method: 'GET', url: org(c) }) },
  {
    name: 'PUT /api/org/schools/:orgId',
    expected: MANAGE,
    request: (c) => ({
      method: 'PUT',
      url: org(c),
      payload: {
        name: '示范中学',
        region: '浙江省杭州市',
        schoolType: '初中',
        filingNumber: '',
        passPercent: 60,
        goodPercent: 75,
        excellentPercent: 85,
      },
    }),
  },
  // 各学年学科分数线: any member reads; the school's managers and the school year's director set them.
  {
    name: 'GET /api/org/schools/:orgId/rate-lines',
    expected: READ,
    request: (c) => ({ method: 'GET', url: `${org(c)}/rate-lines` }),
  },
  {
    name: 'PUT /api/org/schools/:orgId/rate-lines/:schoolYearId/:subjectId',
    expected: { ...MANAGE, director: 200 },
    request: (c) => ({
      method: 'PUT',
      url: `${org(c)}/rate-lines/${c.school.schoolYearId}/${c.school.mathId}`,
      payload: { excellentPercent: 85, goodPercent: 75, passPercent: 60, lowPercent: 40 },
    }),
  },
  {
    name: 'DELETE /api/org/schools/:orgId/rate-lines/:schoolYearId/:subjectId',
    expected: { ...MANAGE, director: 200 },
    request: (c) => ({ method: 'DELETE', url: `${org(c)}/rate-lines/${c.school.schoolYearId}/${c.school.mathId}` }),
  },
  {
    name: 'GET /api/org/schools/:orgId/structure',
    expected: READ,
    request: (c) => ({ method: 'GET', url: `${org(c)}/structure` }),
  },
  {
    name: 'POST /api/org/schools/:orgId/school-years',
    expected: MANAGE,
    request: (c) => ({
      method: 'POST',
      url: `${org(c)}/school-years`,
      payload: { name: `2027级${c.uniq()}`, classNames: ['一班'] },
    }),
  },
  {
    name: 'POST /api/org/schools/:orgId/school-years/:id/classes',
    expected: MANAGE,
    request: (c) => ({
      method: 'POST',
      url: `${org(c)}/school-years/${c.school.schoolYearId}/classes`,
      payload: { name: `新班${c.uniq()}` },
    }),
  },
  {
    name: 'PUT /api/org/schools/:orgId/classes/:id',
    expected: MANAGE,
    request: (c) => ({ method: 'PUT', url: `${org(c)}/classes/${c.school.classIds[3]}`, payload: { name: '初一(4)班' } }),
  },
  {
    name: 'POST /api/org/schools/:orgId/classes/:id/archive',
    expected: MANAGE,
    request: (c) => ({ method: 'POST', url: `${org(c)}/classes/${c.school.classIds[3]}/archive`, payload: { archived: false } }),
  },
  {
    name: 'POST /api/org/schools/:orgId/subjects',
    expected: MANAGE,
    request: (c) => ({ method: 'POST', url: `${org(c)}/subjects`, payload: { name: `书法${c.uniq()}` } }),
  },
  // ---- staff ----
  { name: 'GET /api/org/schools/:orgId/members', expected: READ, request: (c) => ({ method: 'GET', url: `${org(c)}/members` }) },
  {
    name: 'PUT /api/org/schools/:orgId/members/:id',
    expected: MANAGE,
    request: async (c) => ({
      method: 'PUT',
      url: `${org(c)}/members/${await freshMember(c)}`,
      payload: {
        role: 'teacher',
        gradeDirectorOf: [],
        classTeacherOf: [],
        assignments: [{ classId: c.school.classIds[0], subjectId: c.school.mathId }],
      },
    }),
  },
  {
    name: 'DELETE /api/org/schools/:orgId/members/:id',
    expected: MANAGE,
    request: async (c) => ({ method: 'DELETE', url: `${org(c)}/members/${await freshMember(c)}` }),
  },
  // ---- invitations ----
  {
    name: 'POST /api/org/schools/:orgId/invitations',
    expected: MANAGE,
    request: (c) => ({ method: 'POST', url: `${org(c)}/invitations`, payload: {} }),
  },
  {
    name: 'GET /api/org/schools/:orgId/invitations',
    expected: MANAGE,
    request: (c) => ({ method: 'GET', url: `${org(c)}/invitations` }),
  },
  {
    name: 'POST /api/org/schools/:orgId/invitations/:id/revoke',
    expected: MANAGE,
    request: async (c) => ({ method: 'POST', url: `${org(c)}/invitations/${await freshInvitation(c)}/revoke` }),
  },
];

describe('the permission matrix', () => {
  const app = useTestApp();
  let ctx: Ctx;
  let callers: Record<CallerKind, Caller>;

  beforeAll(async () => {
    const school = await demoSchool(app());
    const other = await createOtherSchool(app());
    await addMember(app(), 'm-admin', school.orgId, { role: 'admin' });
    await addMember(app(), 'm-class', school.orgId, { classTeacherOf: [school.classIds[1]!] });
    await addMember(app(), 'm-subject', school.orgId, { teaches: [{ classId: school.classIds[2]!, subjectId: school.mathId }] });
    await addMember(app(), 'm-plain', school.orgId);
    callers = {
      creator: await callerFor(app(), 'creator'),
      admin: await callerFor(app(), 'm-admin'),
      director: await callerFor(app(), 'director'),
      classTeacher: await callerFor(app(), 'm-class'),
      subjectTeacher: await callerFor(app(), 'm-subject'),
      otherTeacher: await callerFor(app(), 'm-plain'),
      otherSchool: other.call,
      none: (options) => app().inject(options),
    };
    let counter = 0;
    const bank = questionPageSchema.parse(
      (
        await callers.subjectTeacher({ method: 'GET', url: `/api/questions?subjectId=${school.mathId}&type=single&pageSize=5` })
      ).json().data,
    );
    ctx = {
      app: app(),
      school,
      owner: callers.subjectTeacher,
      creator: callers.creator,
      questionIds: bank.list.map((q) => q.id),
      uniq: () => `${(counter += 1)}`,
    };
  });

  it('lets a colleague copy a paper they may not change, and change the copy', async () => {
    const paperId = await ownedPaper(ctx);
    const copied = await callers.director({ method: 'POST', url: `/api/papers/${paperId}/copy` });
    const copy = paperDetailSchema.parse(copied.json().data);
    expect(copy.id).not.toBe(paperId);
    expect(copy.title).toMatch(/（副本）$/);
    expect(copy.questionCount).toBe(2);
    expect((await callers.director({ method: 'PUT', url: `/api/papers/${copy.id}`, payload: paperInput(ctx) })).statusCode).toBe(
      200,
    );
    expect((await callers.director({ method: 'PUT', url: `/api/papers/${paperId}`, payload: paperInput(ctx) })).statusCode).toBe(
      403,
    );
  });

  it('offers each caller exactly the classes the server lets them assign to', async () => {
    const { classIds } = ctx.school;
    const paperId = await ownedPaper(ctx);
    const expected: Partial<Record<CallerKind, number[]>> = {
      creator: classIds,
      admin: classIds,
      director: classIds,
      classTeacher: [classIds[1]!],
      subjectTeacher: [classIds[2]!],
      otherTeacher: [],
    };
    for (const [kind, offered] of Object.entries(expected) as [CallerKind, number[]][]) {
      const response = await callers[kind]({ method: 'GET', url: `/api/homework/assignable-classes?paperId=${paperId}` });
      expect(response.statusCode).toBe(200);
      const listed = classListSchema.parse(response.json().data);
      expect(
        listed.map((c) => c.id),
        kind,
      ).toEqual(offered);
      for (const classId of classIds) {
        const assigned = await callers[kind]({
          method: 'POST',
          url: '/api/homework',
          payload: { paperId, classIds: [classId], startDate: '2026-03-02', dueDate: '2026-03-09' },
        });
        if (offered.includes(classId)) expect(assigned.statusCode, `${kind} → ${classId}`).toBe(200);
        else expect(failure(assigned), `${kind} → ${classId}`).toEqual({ status: 403, msg: '很抱歉，您暂无该操作权限' });
      }
    }
    // One offered class and one not: refused as a whole, nothing made.
    const before = (await callers.classTeacher({ method: 'GET', url: '/api/homework?pageSize=1' })).json().data.total;
    const mixed = await callers.classTeacher({
      method: 'POST',
      url: '/api/homework',
      payload: { paperId, classIds: [classIds[1], classIds[2]], startDate: '2026-03-02', dueDate: '2026-03-09' },
    });
    expect(failure(mixed)).toEqual({ status: 403, msg: '很抱歉，您暂无该操作权限' });
    expect((await callers.classTeacher({ method: 'GET', url: '/api/homework?pageSize=1' })).json().data.total).toBe(before);
  });

  it('offers each caller on the scan page exactly the homework the server lets them scan', async () => {
    const { classIds } = ctx.school;
    // The owner's (subject teacher of maths in the third class) and the creator's for the second class.
    const owned = await ownedHomework(ctx);
    const assigned = await ctx.creator({
      method: 'POST',
      url: '/api/homework',
      payload: { paperId: await ownedPaper(ctx), classIds: [classIds[1]], startDate: '2026-03-02', dueDate: '2026-03-09' },
    });
    const second = homeworkSchema.parse(assigned.json().data).id;
    const drafted = await ctx.owner({
      method: 'POST',
      url: '/api/homework',
      payload: {
        paperId: await ownedPaper(ctx),
        classIds: [classIds[2]],
        startDate: '2026-03-02',
        dueDate: '2026-03-09',
        status: 'draft',
      },
    });
    const draft = homeworkSchema.parse(drafted.json().data).id;
    const expected: Partial<Record<CallerKind, number[]>> = {
      creator: [second, owned],
      admin: [second, owned],
      director: [second, owned],
      classTeacher: [second],
      subjectTeacher: [owned],
      otherTeacher: [],
    };
    for (const [kind, offered] of Object.entries(expected) as [CallerKind, number[]][]) {
      const response = await callers[kind]({ method: 'GET', url: '/api/homework/scannable' });
      expect(response.statusCode).toBe(200);
      const listed = scannableHomeworkSchema.parse(response.json().data).map((h) => h.id);
      expect(
        listed.filter((id) => [owned, second, draft].includes(id)),
        kind,
      ).toEqual(offered);
      for (const homeworkId of [owned, second]) {
        const batch = await callers[kind]({
          method: 'POST',
          url: '/api/scan/batches',
          payload: { homeworkId, stationName: '矩阵' },
        });
        if (offered.includes(homeworkId)) expect(batch.statusCode, `${kind} → ${homeworkId}`).toBe(200);
        else expect(failure(batch), `${kind} → ${homeworkId}`).toEqual({ status: 403, msg: '很抱歉，您暂无该操作权限' });
      }
    }
    // Another school's teacher is offered none of this school's homework.
    const other = await callers.otherSchool({ method: 'GET', url: '/api/homework/scannable' });
    expect(scannableHomeworkSchema.parse(other.json().data).map((h) => h.id)).not.toContain(owned);
  });

  it('answers 400 for a bad paper id and 404 for a paper of another school', async () => {
    const paperId = await ownedPaper(ctx);
    const bad = await callers.creator({ method: 'GET', url: '/api/homework/assignable-classes?paperId=abc' });
    expect(bad.statusCode).toBe(400);
    const missing = await callers.otherSchool({ method: 'GET', url: `/api/homework/assignable-classes?paperId=${paperId}` });
    expect(failure(missing).status).toBe(404);
  });

  describe.each(ROUTES)('$name', (row) => {
    it.each(CALLERS)('as %s', async (kind) => {
      const response = await callers[kind](await row.request(ctx));
      if (response.statusCode !== row.expected[kind]) {
        throw new Error(`${row.name} as ${kind}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
      // Marking names who may (the homework's 布置者 or an admin); everything else is the spec's message.
      if (response.statusCode === 403) expect([MESSAGES.forbidden, ...MARKING_403]).toContain(response.json().msg);
    });
  });
});
