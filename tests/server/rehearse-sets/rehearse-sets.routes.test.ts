/**
 * Re-practice sets over the demo semester: the preview keeps the choice rules against the database (same
 * knowledge point, difficulty within one step, never in a homework the student had, none repeated),
 * scope (a teacher's own classes; another school 404; a colleague without the class 403; bad input 400),
 * making a personalised set (a paper and sheet per student), its print, and scanning two students'
 * sheets back: each is read and scored against their own questions and their wrong questions move on.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import * as mupdf from 'mupdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSemesterForSchool } from '../../../server/db/seed-semester';
import {
  answers,
  classes,
  homework,
  homeworkClasses,
  homeworkStudentPapers,
  paperQuestions,
  papers,
  paperSections,
  questionScores,
  rehearseSetItems,
  students,
  subjects,
  wrongQuestions,
} from '../../../server/db/schema';
import { answerKeyLabels } from '../../../server/services/marking/objective-scoring';
import { homeworkAnalysisSchema } from '../../../src/shared/contract/analysis';
import { answerSheetTemplateSchema } from '../../../src/shared/contract/answer-sheet';
import { markingTaskSchema, scoreTableSchema } from '../../../src/shared/contract/marking';
import { recomputeWrongBook } from '../../../server/services/rehearse/wrong-book.service';
import {
  setCreatedSchema,
  setPreviewSchema,
  studentSheetSpecsSchema,
  type SetPreview,
} from '../../../src/shared/contract/rehearse-sets';
import { createOtherSchool } from '../papers/papers-helper';
import {
  addTeacher,
  type Caller,
  callerFor,
  createMarkingApp,
  data,
  FakeEngine,
  type MarkingApp,
  scanSheets,
  sheetOf,
} from '../marking/marking-helper';

async function waitFor(check: () => Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
}

describe('re-practice sets', () => {
  let handle: MarkingApp;
  const engine = new FakeEngine();
  let teacher: Caller;
  let newcomer: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  const ids = { year: 0, math: 0, class1: 0 };
  const app = () => handle.app;
  const db = () => app().database.db;
  let preview: SetPreview;
  const base = () => ({ schoolYearId: ids.year, subjectId: ids.math, classIds: [ids.class1], count: 3, similarPerQuestion: 1 });

  beforeAll(async () => {
    handle = await createMarkingApp({ engine });
    teacher = await callerFor(app(), 'teacher');
    await seedSemesterForSchool(db(), teacher.orgId);
    const everyone = await db().select({ id: students.id }).from(students).where(eq(students.orgId, teacher.orgId));
    await db().transaction((tx) =>
      recomputeWrongBook(
        tx as never,
        teacher.orgId,
        everyone.map((s) => s.id),
      ),
    );
    other = await createOtherSchool(app());
    newcomer = await addTeacher(app(), 'newcomer', '钱老师', teacher.orgId);
    const [year] = await db()
      .select()
      .from(classes)
      .where(and(eq(classes.orgId, teacher.orgId), eq(classes.type, 1)))
      .orderBy(asc(classes.sort), asc(classes.id))
      .limit(1);
    ids.year = year!.id;
    const [klass] = await db()
      .select()
      .from(classes)
      .where(and(eq(classes.orgId, teacher.orgId), eq(classes.pid, year!.id)))
      .orderBy(asc(classes.sort), asc(classes.id))
      .limit(1);
    ids.class1 = klass!.id;
    const [math] = await db()
      .select()
      .from(subjects)
      .where(and(eq(subjects.orgId, teacher.orgId), eq(subjects.name, '数学')));
    ids.math = math!.id;
    preview = setPreviewSchema.parse(data(await teacher({ method: 'POST', url: '/api/rehearse/sets/preview', payload: base() })));
  }, 180_000);
  afterAll(async () => {
    await handle?.close();
  });

  it('previews a set for every student of the class, keeping every rule against the database', async () => {
    expect(preview.students.length).toBe(40);
    const withItems = preview.students.filter((s) => s.items.length > 0);
    expect(withItems.length).toBeGreaterThan(30);
    const points = new Map<number, number[]>();
    const difficulty = new Map<number, number>();
    const kpRows = (await db().execute(
      sql`select q.id, q.difficulty, coalesce(array_agg(k.knowledge_point_id) filter (where k.knowledge_point_id is not null), '{}') as kps
          from questions q left join question_knowledge_points k on k.question_id = q.id group by q.id`,
    )) as unknown as { rows: { id: number; difficulty: number; kps: number[] }[] };
    for (const row of kpRows.rows) {
      points.set(Number(row.id), row.kps.map(Number));
      difficulty.set(Number(row.id), Number(row.difficulty));
    }
    let similar = 0;
    for (const student of withItems) {
      const seenRows = (await db().execute(
        sql`select distinct pq.question_id as qid from students st join homework_classes hc on hc.class_id = st.class_id
            join homework h on h.id = hc.homework_id join paper_questions pq on pq.paper_id = h.paper_id where st.id = ${student.studentId}`,
      )) as unknown as { rows: { qid: number }[] };
      const seen = new Set(seenRows.rows.map((r) => Number(r.qid)));
      const book = await db()
        .select({ questionId: wrongQuestions.questionId })
        .from(wrongQuestions)
        .where(eq(wrongQuestions.studentId, student.studentId));
      expect(new Set(student.items.map((i) => i.questionId)).size).toBe(student.items.length);
      for (const item of student.items) {
        expect(item.reason.text.length).toBeGreaterThan(0);
        if (item.kind === 'own') {
          expect(book.some((b) => b.questionId === item.questionId)).toBe(true);
          continue;
        }
        similar += 1;
        expect(seen.has(item.questionId)).toBe(false);
        expect(points.get(item.questionId)!.some((p) => points.get(item.originQuestionId)!.includes(p))).toBe(true);
        expect(Math.abs(difficulty.get(item.questionId)! - difficulty.get(item.originQuestionId)!)).toBeLessThanOrEqual(1);
        expect(item.reason.text).toContain('从未做过');
      }
    }
    expect(similar).toBeGreaterThan(0);
  });

  it('answers 400 for bad input, 404 for another school, 403 for a class the teacher does not see', async () => {
    const post = (caller: Caller | typeof other.call, payload: object) =>
      caller({ method: 'POST', url: '/api/rehearse/sets/preview', payload });
    expect((await post(teacher, { ...base(), count: 0 })).statusCode).toBe(400);
    expect((await post(teacher, { ...base(), classIds: [] })).statusCode).toBe(400);
    expect((await post(teacher, { ...base(), linePercent: 101 })).statusCode).toBe(400);
    expect((await post(teacher, { ...base(), classIds: [other.classId] })).statusCode).toBe(404);
    expect((await post(other.call, base())).statusCode).toBe(404);
    expect((await post(newcomer, base())).statusCode).toBe(403);
    const create = await teacher({
      method: 'POST',
      url: '/api/rehearse/sets',
      payload: { ...base(), title: '', startDate: '2026-03-02', dueDate: '2026-03-09' },
    });
    expect(create.statusCode).toBe(400);
  });

  it('refuses a swap that breaks a rule', async () => {
    const student = preview.students.find((s) => s.items.some((i) => i.kind === 'own'))!;
    const own = student.items.find((i) => i.kind === 'own')!;
    const response = await teacher({
      method: 'POST',
      url: '/api/rehearse/sets/preview',
      payload: { ...base(), swaps: [{ studentId: student.studentId, position: own.position, questionId: own.questionId }] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().msg ?? response.body).toContain('只能替换同类题');
  });

  it('makes a personalised set, prints it, and scores two scanned sheets against their own questions', async () => {
    const created = setCreatedSchema.parse(
      data(
        await teacher({
          method: 'POST',
          url: '/api/rehearse/sets',
          payload: { ...base(), title: '错题重练（一）', startDate: '2026-11-20', dueDate: '2026-11-22' },
        }),
      ),
    );
    const own = await db().select().from(homeworkStudentPapers).where(eq(homeworkStudentPapers.homeworkId, created.homeworkId));
    expect(own.length).toBe(created.students);
    const specs = studentSheetSpecsSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/homework/${created.homeworkId}/answer-sheet/student-specs` })),
    );
    expect(specs.sheets.length).toBe(created.students);
    // The per-student papers belong to the homework, not to 我的试卷.
    const listed = data<{ list: { id: number }[] }>(await teacher({ method: 'GET', url: '/api/papers?page=1&pageSize=100' }));
    expect(listed.list.some((p) => own.some((o) => o.paperId === p.id))).toBe(false);

    const [first, second] = preview.students.filter((s) => s.items.length >= 2);
    const pdf = await teacher({ method: 'GET', url: `/api/rehearse/sets/${created.setId}/pdf?studentId=${first!.studentId}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const classPdf = await teacher({ method: 'GET', url: `/api/rehearse/sets/${created.setId}/pdf?classId=${ids.class1}` });
    expect(classPdf.statusCode).toBe(200);
    expect(classPdf.rawPayload.length).toBeGreaterThan(pdf.rawPayload.length);
    expect((await other.call({ method: 'GET', url: `/api/rehearse/sets/${created.setId}/pdf` })).statusCode).toBe(404);
    // The progress of a PDF made with a key: every student, done; only for the user who asked.
    const tracked = await teacher({
      method: 'GET',
      url: `/api/rehearse/sets/${created.setId}/pdf?classId=${ids.class1}&progress=test-progress-1`,
    });
    expect(tracked.statusCode).toBe(200);
    const perClass = created.classes.find((c) => c.id === ids.class1)!.students;
    expect(data(await teacher({ method: 'GET', url: '/api/rehearse/sets/pdf-progress/test-progress-1' }))).toEqual({
      done: perClass,
      total: perClass,
      stage: 'done',
    });
    expect((await other.call({ method: 'GET', url: '/api/rehearse/sets/pdf-progress/test-progress-1' })).statusCode).toBe(404);
    expect((await teacher({ method: 'GET', url: '/api/rehearse/sets/pdf-progress/never-asked-1' })).statusCode).toBe(404);
    expect((await teacher({ method: 'GET', url: '/api/rehearse/sets/pdf-progress/x' })).statusCode).toBe(400);
    // The keys of each student's own sheet, for the simulated scanner, only when asked.
    const keyed = studentSheetSpecsSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/homework/${created.homeworkId}/answer-sheet/student-specs?keys=1` })),
    );
    expect(specs.sheets.every((sheet) => sheet.keys === undefined)).toBe(true);
    expect(keyed.sheets.some((sheet) => Object.keys(sheet.keys ?? {}).length > 0)).toBe(true);
    expect(
      (await teacher({ method: 'GET', url: `/api/homework/${created.homeworkId}/answer-sheet/student-specs?keys=yes` }))
        .statusCode,
    ).toBe(400);

    // Each sheet is answered right on every objective question of that student's own paper.
    const codes = new Map(
      (await db().select({ id: students.id, code: students.code }).from(students).where(eq(students.classId, ids.class1))).map(
        (s) => [s.id, s.code],
      ),
    );
    const itemsOf = async (studentId: number) =>
      db()
        .select()
        .from(rehearseSetItems)
        .where(and(eq(rehearseSetItems.setId, created.setId), eq(rehearseSetItems.studentId, studentId)))
        .orderBy(asc(rehearseSetItems.position));
    const keyRows = (await db().execute(sql`select id, type, answer from questions`)) as unknown as {
      rows: { id: number; type: string; answer: string[] }[];
    };
    const keys = new Map(keyRows.rows.map((r) => [Number(r.id), answerKeyLabels(r.type as never, r.answer)]));
    for (const sheet of keyed.sheets) {
      const studentId = [...codes].find(([, code]) => code === sheet.studentCode)?.[0];
      if (studentId === undefined) continue;
      for (const item of await itemsOf(studentId)) {
        const key = keys.get(item.questionId)!;
        expect(sheet.keys?.[String(item.position)], `${sheet.studentCode} ${item.position}`).toEqual(
          key.length > 0 ? key : undefined,
        );
      }
    }
    const sheets = [];
    let moved = 0;
    for (const student of [first!, second!]) {
      const spec = specs.sheets.find((s) => s.studentCode === codes.get(student.studentId))!.spec;
      const items = await itemsOf(student.studentId);
      expect(spec.questions.length).toBe(items.length);
      // Each question keeps its own points: a wrong question its full score when it went wrong, on the
      // student's paper, sheet and set item alike.
      const bookBefore = await db().select().from(wrongQuestions).where(eq(wrongQuestions.studentId, student.studentId));
      const paperId = own.find((o) => o.studentId === student.studentId)!.paperId;
      const paperScores = new Map(
        (await db().select().from(paperQuestions).where(eq(paperQuestions.paperId, paperId))).map((q) => [q.no, q.score]),
      );
      for (const item of items) {
        expect(item.score).toBeGreaterThan(0);
        expect(paperScores.get(item.position)).toBe(item.score);
        if (item.originQuestionId === item.questionId)
          expect(item.score).toBe(bookBefore.find((b) => b.questionId === item.questionId)!.fullScore);
      }
      const marks: Record<number, string[]> = {};
      for (const item of items) {
        const key = keys.get(item.questionId)!;
        if (key.length > 0) marks[item.position] = key;
      }
      sheets.push(sheetOf(created.homeworkId, codes.get(student.studentId), marks));
    }
    await scanSheets(app(), engine, teacher.token, created.homeworkId, sheets);
    for (const student of [first!, second!]) {
      const items = await itemsOf(student.studentId);
      const objective = items.filter((i) => keys.get(i.questionId)!.length > 0);
      await waitFor(async () => {
        const scored = await db()
          .select()
          .from(questionScores)
          .where(and(eq(questionScores.homeworkId, created.homeworkId), eq(questionScores.studentId, student.studentId)));
        return scored.length >= objective.length;
      });
      const scored = await db()
        .select()
        .from(questionScores)
        .where(and(eq(questionScores.homeworkId, created.homeworkId), eq(questionScores.studentId, student.studentId)));
      // Full marks on each objective question: the student's own key was used, not another student's.
      for (const item of objective) {
        expect(scored.find((s) => s.questionNo === item.position)?.score).toBe(item.score);
      }
      // Their origin questions answered right move from 待重练 to 重练对 1.
      const origins = [...new Set(objective.map((i) => i.originQuestionId!))];
      const book = await db().select().from(wrongQuestions).where(eq(wrongQuestions.studentId, student.studentId));
      for (const origin of origins) {
        const entry = book.find((b) => b.questionId === origin);
        if (entry) {
          expect(entry.mastery).toBe('redo1');
          moved += 1;
        }
      }
    }
    expect(moved).toBeGreaterThan(0);
  }, 120_000);

  it('a set for chosen students expects their sheets only: the rest of the class is not 未扫描 in it', async () => {
    const chosen = preview.students.slice(-2).map((s) => s.studentId);
    const created = setCreatedSchema.parse(
      data(
        await teacher({
          method: 'POST',
          url: '/api/rehearse/sets',
          payload: { ...base(), studentIds: chosen, title: '错题重练（两人）', startDate: '2026-11-20', dueDate: '2026-11-22' },
        }),
      ),
    );
    expect(created.students).toBe(2);
    const left = data<{ unscanned: { code: string }[] }>(
      await teacher({ method: 'GET', url: `/api/scan/homework/${created.homeworkId}/unscanned-students` }),
    );
    const codes = await db().select({ code: students.code }).from(students).where(inArray(students.id, chosen));
    expect(left.unscanned.map((s) => s.code).sort()).toEqual(codes.map((s) => s.code).sort());
    const table = data<{ students: { studentId: number }[] }>(
      await teacher({ method: 'GET', url: `/api/marking/homework/${created.homeworkId}/scores` }),
    );
    expect(table.students.map((s) => s.studentId).sort()).toEqual([...chosen].sort());
  });

  it('analyses a set for chosen students over the same students and statuses as its score table', async () => {
    const chosen = preview.students
      .filter((s) => s.items.length >= 2)
      .slice(2, 5)
      .map((s) => s.studentId);
    expect(chosen.length).toBe(3);
    const created = setCreatedSchema.parse(
      data(
        await teacher({
          method: 'POST',
          url: '/api/rehearse/sets',
          payload: { ...base(), studentIds: chosen, title: '错题重练（三人）', startDate: '2026-11-20', dueDate: '2026-11-22' },
        }),
      ),
    );
    const hwId = created.homeworkId;
    const [scanned, absent] = chosen as [number, number, number];
    // The first hands in every page of their own sheet, objective questions right, the rest marked in
    // full; the second is 缺考; the third never scanned.
    const [paper] = await db()
      .select()
      .from(homeworkStudentPapers)
      .where(and(eq(homeworkStudentPapers.homeworkId, hwId), eq(homeworkStudentPapers.studentId, scanned)));
    const template = answerSheetTemplateSchema.parse(paper!.template);
    const items = await db()
      .select()
      .from(rehearseSetItems)
      .where(and(eq(rehearseSetItems.homeworkId, hwId), eq(rehearseSetItems.studentId, scanned)))
      .orderBy(asc(rehearseSetItems.position));
    const keyRows = (await db().execute(sql`select id, type, answer from questions`)) as unknown as {
      rows: { id: number; type: string; answer: string[] }[];
    };
    const keys = new Map(keyRows.rows.map((r) => [Number(r.id), answerKeyLabels(r.type as never, r.answer)]));
    const marks: Record<number, string[]> = {};
    for (const item of items) if (keys.get(item.questionId)!.length > 0) marks[item.position] = keys.get(item.questionId)!;
    const [who] = await db().select({ code: students.code }).from(students).where(eq(students.id, scanned));
    await scanSheets(
      app(),
      engine,
      teacher.token,
      hwId,
      template.pages.map((page) => sheetOf(hwId, who!.code, marks, page.page)),
    );
    await app().marking.queue.idle();
    for (const item of items.filter((i) => keys.get(i.questionId)!.length === 0)) {
      const task = markingTaskSchema.parse(
        data(
          await teacher({
            method: 'POST',
            url: `/api/marking/homework/${hwId}/questions/${item.position}/next`,
            payload: { skip: [] },
          }),
        ),
      );
      const scored = await teacher({
        method: 'POST',
        url: `/api/marking/tasks/${task.taskId}/score`,
        payload: { score: Number(item.score) },
      });
      expect(scored.statusCode).toBe(200);
    }
    expect(
      (
        await teacher({
          method: 'PUT',
          url: `/api/marking/homework/${hwId}/students/${absent}/absence`,
          payload: { absent: true },
        })
      ).statusCode,
    ).toBe(200);

    const table = scoreTableSchema.parse(data(await teacher({ method: 'GET', url: `/api/marking/homework/${hwId}/scores` })));
    const analysis = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `/api/analysis/homework/${hwId}` })));
    expect(table.students.map((s) => s.studentId).sort()).toEqual([...chosen].sort());
    expect(analysis.students.map((s) => s.studentId).sort()).toEqual([...chosen].sort());
    const statusOf = (list: { studentId: number; status: string }[]) =>
      Object.fromEntries(list.map((s) => [s.studentId, s.status]));
    expect(statusOf(analysis.students)).toEqual(statusOf(table.students));
    expect(statusOf(table.students)[scanned]).toBe('complete');
    const complete = table.students.filter((s) => s.status === 'complete').length;
    expect(analysis.summary.participation).toMatchObject({
      enrolled: table.students.length,
      participants: complete,
      absent: table.students.length - complete,
    });
    expect(analysis.summary.participation).toMatchObject({ enrolled: 3, participants: 1, absent: 2 });
    expect(analysis.students.find((s) => s.studentId === scanned)!.total).toBe(
      table.students.find((s) => s.studentId === scanned)!.total,
    );
  }, 120_000);

  it('takes a question added with 加入错题重练 into the class set even above the line, and says why', async () => {
    const classPreview = async () =>
      setPreviewSchema.parse(
        data(
          await teacher({
            method: 'POST',
            url: '/api/rehearse/sets/preview',
            payload: { ...base(), kind: 'class', linePercent: 30 },
          }),
        ),
      );
    const before = await classPreview();
    // The class's best-answered question of a math homework: far above a 30 % line.
    const rates = (await db().execute(
      sql`select qs.homework_id as hid, qs.question_no as no, pq.question_id as qid, sum(qs.score)::float / sum(pq.score) as rate
          from question_scores qs join students st on st.id = qs.student_id join homework h on h.id = qs.homework_id
          join papers p on p.id = h.paper_id join paper_questions pq on pq.paper_id = h.paper_id and pq.no = qs.question_no
          where st.class_id = ${ids.class1} and p.subject_id = ${ids.math} and qs.source <> 'missing'
            and not exists (select 1 from rehearse_sets rs where rs.homework_id = h.id)
          group by qs.homework_id, qs.question_no, pq.question_id order by rate desc limit 1`,
    )) as unknown as { rows: { hid: number; no: number; qid: number; rate: number }[] };
    const best = rates.rows[0]!;
    expect(Number(best.rate)).toBeGreaterThan(0.3);
    expect(before.classItems.some((i) => i.questionId === Number(best.qid))).toBe(false);
    const added = await teacher({
      method: 'POST',
      url: '/api/rehearse/queue',
      payload: { homeworkId: Number(best.hid), questionNo: Number(best.no), classId: ids.class1 },
    });
    expect(added.statusCode).toBe(200);
    const after = await classPreview();
    expect(after.classItems[0]).toMatchObject({ questionId: Number(best.qid) });
    expect(after.classItems[0]!.reason.text).toContain('作业讲评中加入错题重练');
    expect(after.classItems.slice(1).map((i) => i.questionId)).toEqual(
      before.classItems.slice(0, after.classItems.length - 1).map((i) => i.questionId),
    );
  });

  it('prefers a similar question that the students who chose the same wrong option also got wrong more often', async () => {
    const previewOf = async () =>
      setPreviewSchema.parse(data(await teacher({ method: 'POST', url: '/api/rehearse/sets/preview', payload: base() })));
    const before = await previewOf();
    // A student's similar pick for a wrong choice answer, without co-error data (the demo grade did the same
    // homework, so nobody answered a question the student has not seen), and its first runner-up.
    const found = before.students
      .flatMap((s) => s.items.map((item) => ({ student: s, item })))
      .find(({ item }) => item.kind === 'similar' && item.reason.distractor === 'noData' && item.alternatives.length > 0)!;
    expect(found).toBeDefined();
    expect(found.item.reason.text).toContain(`暂无选 ${found.item.reason.chosenLabels!.join('')} 的同学做此题的记录`);
    const origin = found.item.originQuestionId;
    const runnerUp = found.item.alternatives[0]!;
    const chosen = found.item.reason.chosenLabels!;
    const other = chosen.includes('A') ? 'B' : 'A';
    // Another class does a later homework with the original and the runner-up (their latest answers): of
    // those who chose the same option on the original, 3 of 4 get the runner-up wrong; of the others, 1 of 4.
    const [klass2] = await db()
      .select({ id: classes.id })
      .from(classes)
      .where(and(eq(classes.orgId, teacher.orgId), eq(classes.pid, ids.year), sql`${classes.id} <> ${ids.class1}`))
      .orderBy(asc(classes.sort), asc(classes.id))
      .limit(1);
    const roster = await db()
      .select({ id: students.id })
      .from(students)
      .where(eq(students.classId, klass2!.id))
      .orderBy(asc(students.code))
      .limit(8);
    const [paper] = await db()
      .insert(papers)
      .values({ orgId: teacher.orgId, subjectId: ids.math, schoolYearId: ids.year, title: '同错测试' })
      .returning();
    const [section] = await db().insert(paperSections).values({ paperId: paper!.id, sort: 0, title: '一' }).returning();
    await db()
      .insert(paperQuestions)
      .values(
        [origin, runnerUp].map((questionId, i) => ({
          paperId: paper!.id,
          sectionId: section!.id,
          questionId,
          no: i + 1,
          score: 4,
        })),
      );
    const [hw] = await db()
      .insert(homework)
      .values({
        orgId: teacher.orgId,
        paperId: paper!.id,
        title: '同错测试',
        status: 'assigned',
        startDate: '2026-12-20',
        dueDate: '2026-12-21',
      })
      .returning();
    await db().insert(homeworkClasses).values({ homeworkId: hw!.id, classId: klass2!.id });
    for (const [k, student] of roster.entries()) {
      const same = k < 4;
      const wrong = same ? k < 3 : k < 5;
      for (const [no, labels, score] of [
        [1, same ? chosen : [other], 0],
        [2, ['A'], wrong ? 0 : 4],
      ] as const) {
        const [answer] = await db()
          .insert(answers)
          .values({ orgId: teacher.orgId, homeworkId: hw!.id, studentId: student.id, questionNo: no, labels: [...labels] })
          .returning();
        await db().insert(questionScores).values({
          homeworkId: hw!.id,
          studentId: student.id,
          questionNo: no,
          orgId: teacher.orgId,
          answerId: answer!.id,
          score,
          source: 'auto',
        });
      }
    }
    const after = await previewOf();
    const item = after.students
      .find((s) => s.studentId === found.student.studentId)!
      .items.find((i) => i.position === found.item.position)!;
    expect(item).toMatchObject({ kind: 'similar', originQuestionId: origin, questionId: runnerUp });
    expect(item.reason.distractor).toBe('coError');
    expect(item.reason.text).toContain(`选 ${chosen.join('')} 的同学在此题也常错（错 75%，其他同学错 25%）`);
    expect(item.alternatives).toContain(found.item.questionId);
  });

  it('prints the class’s common set and the personal sets as one job, with one cover listing who gets what', async () => {
    const make = async (payload: Record<string, unknown>) =>
      setCreatedSchema.parse(
        data(
          await teacher({
            method: 'POST',
            url: '/api/rehearse/sets',
            payload: { ...base(), startDate: '2026-11-24', dueDate: '2026-11-26', ...payload },
          }),
        ),
      );
    const two = preview.students.filter((s) => s.items.length > 0).slice(0, 2);
    const personal = await make({ title: '举一反三（合并）', studentIds: two.map((s) => s.studentId) });
    const common = await make({ title: '共性错题（合并）', kind: 'class', linePercent: 90 });
    const response = await teacher({ method: 'GET', url: `/api/rehearse/sets/${personal.setId}/pdf?with=${common.setId}` });
    expect(response.statusCode).toBe(200);
    expect(decodeURIComponent(String(response.headers['content-disposition']))).toContain('举一反三（合并）（含共性错题）');
    const doc = mupdf.Document.openDocument(response.rawPayload, 'application/pdf');
    const pages = Array.from({ length: doc.countPages() }, (_, i) =>
      doc.loadPage(i).toStructuredText('preserve-whitespace').asText().replace(/\s+/g, ' '),
    );
    expect(pages[0]).toContain('发放清单');
    expect(pages[0]).toContain('班级共性错题「共性错题（合并）」');
    expect(pages[0]).toContain(`共 ${common.students} 名学生，每人一份试题和一张答题卡`);
    expect(pages[0]).toContain('个人举一反三「举一反三（合并）」');
    const roster = await db()
      .select({ name: students.name, code: students.code })
      .from(students)
      .where(eq(students.classId, ids.class1))
      .orderBy(asc(students.code));
    // A paper's first page: the set's title and the student's 学号 and name in its heading.
    const paperAt = (title: string, s: { name: string; code: string }) =>
      pages.findIndex((t) => t.includes(title) && t.includes(`学号 ${s.code} · 姓名 ${s.name}`));
    // The common set for the whole class in 学号 order, then the two students' own sets in 学号 order.
    const commonPapers = roster.map((s) => paperAt('共性错题（合并）', s));
    const ownPapers = roster.filter((s) => two.some((t) => t.code === s.code)).map((s) => paperAt('举一反三（合并）', s));
    const order = [...commonPapers, ...ownPapers];
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The cover lists the two students' own sets in 学号 order.
    const cover = pages.slice(0, commonPapers[0]).join(' ');
    const [a, b] = two.map((s) => s.code).sort();
    expect(cover.indexOf(`${a} `)).toBeGreaterThan(cover.indexOf('个人举一反三'));
    expect(cover.indexOf(`${a} `)).toBeLessThan(cover.indexOf(`${b} `));
    // Either way round; not two personal sets, not another school.
    const swapped = await teacher({ method: 'GET', url: `/api/rehearse/sets/${common.setId}/pdf?with=${personal.setId}` });
    expect(swapped.statusCode).toBe(200);
    const twice = await teacher({ method: 'GET', url: `/api/rehearse/sets/${personal.setId}/pdf?with=${personal.setId}` });
    expect(twice.statusCode).toBe(400);
    expect(
      (await other.call({ method: 'GET', url: `/api/rehearse/sets/${personal.setId}/pdf?with=${common.setId}` })).statusCode,
    ).toBe(404);
  }, 120_000);
});
