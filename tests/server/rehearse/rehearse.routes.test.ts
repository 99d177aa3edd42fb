/**
 * The wrong-question book through the real marking path: scanned sheets scored from the key, a mark with
 * its error cause on /write, a mark changed, a redo set moving mastery; and the /rehearse endpoints'
 * scope (a teacher's own classes, another school 404), bad input 400, the queue, settings and Excel.
 */
import ExcelJS from 'exceljs';
import * as mupdf from 'mupdf';
import { PDFDict, PDFDocument, PDFName, type PDFNumber, PDFRawStream } from 'pdf-lib';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MarkingTask, markingTaskSchema } from '../../../src/shared/contract/marking';
import { classBookSchema, studentBookSchema, type StudentBook } from '../../../src/shared/contract/rehearse';
import {
  answers,
  homework,
  questions,
  questionScores,
  rehearseSetItems,
  rehearseSets,
  wrongQuestions,
} from '../../../server/db/schema';
import { recomputeWrongBook } from '../../../server/services/rehearse/wrong-book.service';
import { failure } from '../accounts-helper';
import {
  addTeacher,
  type Caller,
  callerFor,
  createHomework,
  createMarkingApp,
  data,
  FakeEngine,
  type MarkingApp,
  scanAndRecognise,
  sheetOf,
  type TestHomework,
} from '../marking/marking-helper';
import { createOtherSchool } from '../papers/papers-helper';

describe('wrong-question book', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  let teacher: Caller;
  let creator: Caller;
  let newcomer: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  let hw: TestHomework;
  const app = () => handle.app;
  const db = () => app().database.db;

  beforeAll(async () => {
    handle = await createMarkingApp({ engine });
    teacher = await callerFor(app(), 'teacher');
    creator = await callerFor(app(), 'creator');
    newcomer = await addTeacher(app(), 'newcomer', '钱老师', teacher.orgId);
    other = await createOtherSchool(app());
    hw = await createHomework(app(), teacher.orgId);
    // Student 0: all objective right but a partly right multiple choice; student 1: q1 wrong, the rest blank;
    // student 2 is absent, student 3 never scanned.
    await scanAndRecognise(app(), engine, teacher.token, hw.id, [
      sheetOf(hw.id, hw.students[0]!.code, { 1: ['B'], 2: ['A'], 3: ['T'] }),
      sheetOf(hw.id, hw.students[1]!.code, { 1: ['A'] }),
    ]);
    await teacher({
      method: 'PUT',
      url: `/api/marking/homework/${hw.id}/students/${hw.students[2]!.id}/absence`,
      payload: { absent: true },
    });
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
  });

  const book = async (caller: Caller, studentId: number, query = ''): Promise<StudentBook> =>
    studentBookSchema.parse(data(await caller({ method: 'GET', url: `/api/rehearse/student?studentId=${studentId}${query}` })));
  const questionNos = (b: StudentBook) => b.entries.map((e) => e.questionNo).sort();

  async function nextTask(no: number, skip: number[]): Promise<MarkingTask | null> {
    const task = data(
      await teacher({ method: 'POST', url: `/api/marking/homework/${hw.id}/questions/${no}/next`, payload: { skip } }),
    );
    return task === null ? null : markingTaskSchema.parse(task);
  }
  async function markFor(studentIndex: number, no: number, score: number, errorCause?: string) {
    const answerRow = await db()
      .select({ id: answers.id })
      .from(answers)
      .where(
        and(eq(answers.homeworkId, hw.id), eq(answers.studentId, hw.students[studentIndex]!.id), eq(answers.questionNo, no)),
      );
    const skip: number[] = [];
    for (;;) {
      const task = await nextTask(no, skip);
      if (!task) throw new Error('no task');
      if (task.answerId === answerRow[0]!.id) {
        return teacher({ method: 'POST', url: `/api/marking/tasks/${task.taskId}/score`, payload: { score, errorCause } });
      }
      skip.push(task.taskId);
    }
  }

  it('books wrong objective answers as soon as they are scored, with the answer given; absent and unscanned have none', async () => {
    const first = await book(teacher, hw.students[0]!.id);
    expect(first.entries.map((e) => [e.questionNo, e.labels, e.score, e.fullScore])).toEqual([[2, ['A'], 2, 4]]);
    expect(first.entries[0]).toMatchObject({ mastery: 'pending', timesWrong: 1, homework: { id: hw.id }, key: ['A', 'C'] });
    const second = await book(teacher, hw.students[1]!.id);
    expect(questionNos(second)).toEqual([1, 2, 3]);
    expect(second.counts.pending).toBe(3);
    // The hand-marked questions are not scored yet: not in the book.
    expect((await book(teacher, hw.students[2]!.id)).entries).toEqual([]);
    expect((await book(teacher, hw.students[3]!.id)).entries).toEqual([]);
  });

  it('follows marks on /write with their error cause, and a mark changed to full takes the question out', async () => {
    expect(failure(await markFor(1, 5, 3, '马虎'))).toEqual({ status: 400, msg: '错因不在本校的错因列表中' });
    expect((await markFor(1, 5, 3, '计算')).statusCode).toBe(200);
    const after = await book(teacher, hw.students[1]!.id);
    expect(after.entries.find((e) => e.questionNo === 5)).toMatchObject({
      score: 3,
      fullScore: 10,
      errorCause: '计算',
      hasImage: true,
    });
    // The marker changes the mark to full: out of the book.
    const [task] = await db()
      .execute(sql`select id from marking_tasks where homework_id = ${hw.id} and question_no = 5 and score = 3`)
      .then((r) => (r as unknown as { rows: { id: number }[] }).rows);
    expect(
      (await teacher({ method: 'POST', url: `/api/marking/tasks/${task!.id}/score`, payload: { score: 10, errorCause: '计算' } }))
        .statusCode,
    ).toBe(200);
    expect(questionNos(await book(teacher, hw.students[1]!.id))).toEqual([1, 2, 3]);
    const [row] = await db()
      .select({ cause: questionScores.errorCause })
      .from(questionScores)
      .where(
        and(
          eq(questionScores.homeworkId, hw.id),
          eq(questionScores.studentId, hw.students[1]!.id),
          eq(questionScores.questionNo, 5),
        ),
      );
    // A full mark keeps no cause.
    expect(row!.cause).toBeNull();
  });

  it('shows the class its most-missed questions with the score rate over first attempts and the causes', async () => {
    const klass = classBookSchema.parse(data(await teacher({ method: 'GET', url: `/api/rehearse/class?classId=${hw.classId}` })));
    const q1 = klass.questions.find((q) => q.missedBy === 1 && q.type === 'single')!;
    // Question 1 (3 points): 3 + 0 over two marked students; the absent and the unscanned are not 0.
    expect(q1.scoreRate).toBeCloseTo(0.5, 9);
    expect(q1.attempts).toBe(2);
    const q2 = klass.questions.find((q) => q.type === 'multiple')!;
    expect(q2.missedBy).toBe(2);
    expect(klass.questions[0]!.questionId).toBe(q2.questionId);
    expect(klass.students.find((s) => s.id === hw.students[1]!.id)).toMatchObject({ open: 3, mastered: 0 });
    expect(klass.causes).toEqual([{ cause: '未标注', count: 4 }]);
  });

  it('moves mastery with redos in later sets on different questions, and back on a wrong redo', async () => {
    const student = hw.students[0]!.id;
    const [entry] = await db().select().from(wrongQuestions).where(eq(wrongQuestions.studentId, student));
    const origin = entry!.questionId;
    const [source] = await db().select().from(homework).where(eq(homework.id, hw.id));
    /** A re-practice homework whose item 1 for the student is `questionId` practising the origin, scored `score`. */
    async function redoSet(questionId: number, score: number, date: string) {
      const [made] = await db()
        .insert(homework)
        .values({
          orgId: teacher.orgId,
          paperId: source!.paperId,
          title: `错题重练 ${date}`,
          status: 'finished',
          startDate: date,
          dueDate: date,
        })
        .returning();
      const [set] = await db()
        .insert(rehearseSets)
        .values({
          orgId: teacher.orgId,
          subjectId: entry!.subjectId,
          schoolYearId: 1,
          kind: 'personal',
          homeworkId: made!.id,
          classIds: [hw.classId],
        })
        .returning();
      await db().insert(rehearseSetItems).values({
        setId: set!.id,
        homeworkId: made!.id,
        studentId: student,
        position: 1,
        questionId,
        score: 4,
        originQuestionId: origin,
      });
      const [answer] = await db()
        .insert(answers)
        .values({ orgId: teacher.orgId, homeworkId: made!.id, studentId: student, questionNo: 1, labels: [] })
        .returning();
      await db().insert(questionScores).values({
        orgId: teacher.orgId,
        homeworkId: made!.id,
        studentId: student,
        questionNo: 1,
        answerId: answer!.id,
        score,
        source: 'auto',
      });
      await recomputeWrongBook(db(), teacher.orgId, [student]);
      const [after] = await db().select().from(wrongQuestions).where(eq(wrongQuestions.id, entry!.id));
      return after!;
    }
    const otherQuestion = (await book(teacher, hw.students[1]!.id)).entries.find((e) => e.questionNo === 1)!.questionId;
    expect((await redoSet(origin, 4, '2026-04-01')).mastery).toBe('redo1');
    expect(await redoSet(otherQuestion, 4, '2026-04-08')).toMatchObject({ mastery: 'mastered', redoCount: 2 });
    expect(await redoSet(otherQuestion, 1, '2026-04-15')).toMatchObject({ mastery: 'pending', timesWrong: 2 });
    // The redo homework is not a first attempt: the class's score rate on question 1 is unchanged.
    const klass = classBookSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/rehearse/class?classId=${hw.classId}&mastery=all` })),
    );
    expect(klass.questions.find((q) => q.questionId === otherQuestion)!.attempts).toBe(2);
  });

  it('filters by mastery, times wrong and dates, and opens on what is still to redo', async () => {
    const b = await book(teacher, hw.students[1]!.id, '&minTimesWrong=2');
    expect(b.entries).toEqual([]);
    expect((await book(teacher, hw.students[1]!.id, '&from=2026-03-03')).entries).toEqual([]);
    expect((await book(teacher, hw.students[1]!.id, '&mastery=mastered')).entries).toEqual([]);
  });

  it('prints a student’s book as a PDF with their questions, answers, keys and analyses, in the book’s scope', async () => {
    const student = hw.students[1]!;
    const before = await book(teacher, student.id, '&mastery=all');
    expect(before.entries.length).toBeGreaterThan(1);
    // Distinct rich text per question (markup and a formula), so the PDF is checked for this book's questions.
    for (const [i, entry] of before.entries.entries())
      await db()
        .update(questions)
        .set({ stem: `<p>错题本题干${i}号：求 $\\frac{1}{${i + 2}}$ 的值</p>`, analysis: `解析文字${i}号` })
        .where(eq(questions.id, entry.questionId));
    const b = await book(teacher, student.id, '&mastery=all');
    const response = await teacher({ method: 'GET', url: `/api/rehearse/student.pdf?studentId=${student.id}&mastery=all` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/pdf');
    expect(decodeURIComponent(String(response.headers['content-disposition']))).toContain(`${student.name}-错题本.pdf`);
    const doc = mupdf.Document.openDocument(response.rawPayload, 'application/pdf');
    let text = '';
    for (let i = 0; i < doc.countPages(); i += 1) text += doc.loadPage(i).toStructuredText('preserve-whitespace').asText();
    const flat = text.replace(/\s+/g, '');
    expect(flat).toContain(`${student.name}的错题本`);
    expect(flat).toContain(`共${b.entries.length}题（全部）`);
    for (const [i, entry] of b.entries.entries()) {
      expect(flat).toContain(`错题本题干${i}号：求1/${i + 2}的值`);
      expect(flat).toContain(`解析文字${i}号`);
      expect(flat).toContain(`${entry.homework.name}第${entry.questionNo}题`);
    }
    // Another student's questions are not in it; the answers given and the keys are.
    expect(flat).not.toContain(hw.students[0]!.name);
    expect(flat).toContain('学生作答：A');
    expect(flat).toContain('正确答案：');
    // Filters apply as on the page: nothing mastered yet gives an empty book, still a PDF.
    const mastered = await teacher({ method: 'GET', url: `/api/rehearse/student.pdf?studentId=${student.id}&mastery=mastered` });
    const empty = mupdf.Document.openDocument(mastered.rawPayload, 'application/pdf');
    expect(empty.loadPage(0).toStructuredText('preserve-whitespace').asText().replace(/\s+/g, '')).toContain(
      '没有符合条件的错题',
    );

    const pdfUrl = `/api/rehearse/student.pdf?studentId=${student.id}`;
    expect(failure(await other.call({ method: 'GET', url: pdfUrl })).status).toBe(404);
    expect(failure(await newcomer({ method: 'GET', url: pdfUrl })).status).toBe(403);
    expect(failure(await teacher({ method: 'GET', url: '/api/rehearse/student.pdf?studentId=abc' })).status).toBe(400);
    expect(failure(await teacher({ method: 'GET', url: '/api/rehearse/student.pdf?studentId=99999999' })).status).toBe(404);
  });

  it('lets a teacher see only their own classes, another school nothing, and refuses bad filters', async () => {
    expect(failure(await newcomer({ method: 'GET', url: `/api/rehearse/class?classId=${hw.classId}` })).status).toBe(403);
    expect(failure(await newcomer({ method: 'GET', url: `/api/rehearse/student?studentId=${hw.students[0]!.id}` })).status).toBe(
      403,
    );
    expect(failure(await other.call({ method: 'GET', url: `/api/rehearse/class?classId=${hw.classId}` })).status).toBe(404);
    expect(
      failure(await other.call({ method: 'GET', url: `/api/rehearse/student?studentId=${hw.students[0]!.id}` })).status,
    ).toBe(404);
    expect(failure(await teacher({ method: 'GET', url: '/api/rehearse/class?classId=abc' })).status).toBe(400);
    expect(failure(await teacher({ method: 'GET', url: `/api/rehearse/class?classId=${hw.classId}&mastery=x` })).status).toBe(
      400,
    );
    expect(
      failure(await teacher({ method: 'GET', url: `/api/rehearse/class?classId=${hw.classId}&from=2026-05-01&to=2026-04-01` })),
    ).toEqual({ status: 400, msg: '请求参数错误：from：开始日期不能晚于结束日期' });
    const options = data<{ classes: { id: number }[] }>(await newcomer({ method: 'GET', url: '/api/rehearse/options' }));
    expect(options.classes).toEqual([]);
  });

  it('queues a question of the commentary for the class once, and lists it', async () => {
    const add = () => teacher({ method: 'POST', url: '/api/rehearse/queue', payload: { homeworkId: hw.id, questionNo: 2 } });
    expect(data(await add())).toEqual({ added: 1, already: 0 });
    expect(data(await add())).toEqual({ added: 0, already: 1 });
    const list = data<{ questionId: number }[]>(
      await teacher({ method: 'GET', url: `/api/rehearse/queue?classId=${hw.classId}` }),
    );
    expect(list).toHaveLength(1);
    expect(
      failure(await teacher({ method: 'POST', url: '/api/rehearse/queue', payload: { homeworkId: hw.id, questionNo: 99 } }))
        .status,
    ).toBe(400);
    expect(
      failure(await other.call({ method: 'POST', url: '/api/rehearse/queue', payload: { homeworkId: hw.id, questionNo: 2 } }))
        .status,
    ).toBe(404);
    expect(
      failure(await newcomer({ method: 'POST', url: '/api/rehearse/queue', payload: { homeworkId: hw.id, questionNo: 2 } }))
        .status,
    ).toBe(403);
  });

  it('lets admins edit the causes and the line, and a teacher set a book entry’s cause from the list', async () => {
    const body = { errorCauses: ['审题', '计算', '概念', '步骤', '未作答', '书写'], subjectiveWrongPercent: 100 };
    expect(failure(await teacher({ method: 'PUT', url: '/api/rehearse/settings', payload: body })).status).toBe(403);
    expect(
      failure(
        await creator({ method: 'PUT', url: '/api/rehearse/settings', payload: { ...body, errorCauses: ['计算', '计算'] } }),
      ).status,
    ).toBe(400);
    expect(data(await creator({ method: 'PUT', url: '/api/rehearse/settings', payload: body }))).toEqual(body);
    const entry = (await book(teacher, hw.students[1]!.id)).entries[0]!;
    const set = (cause: string | null) =>
      teacher({ method: 'PUT', url: `/api/rehearse/wrong-questions/${entry.id}/cause`, payload: { errorCause: cause } });
    expect((await set('书写')).statusCode).toBe(200);
    expect((await book(teacher, hw.students[1]!.id)).entries.find((e) => e.id === entry.id)!.errorCause).toBe('书写');
    expect(failure(await set('马虎')).status).toBe(400);
    // The commentary groups the homework's wrong answers by cause.
    const causes = data(await teacher({ method: 'GET', url: `/api/rehearse/homework/${hw.id}/causes?classId=${hw.classId}` }));
    expect(causes).toEqual([{ questionNo: entry.questionNo, causes: [{ cause: '书写', count: 1 }] }]);
    expect(failure(await other.call({ method: 'GET', url: `/api/rehearse/homework/${hw.id}/causes` })).status).toBe(404);
    expect(
      failure(
        await other.call({
          method: 'PUT',
          url: `/api/rehearse/wrong-questions/${entry.id}/cause`,
          payload: { errorCause: null },
        }),
      ).status,
    ).toBe(404);
  });

  it('exports the class’s most-missed list as Excel with the same figures', async () => {
    const response = await teacher({ method: 'GET', url: `/api/rehearse/class.xlsx?classId=${hw.classId}` });
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('高频错题')!;
    expect(sheet.getRow(1).getCell(5).value).toBe('错题人数');
    const klass = classBookSchema.parse(data(await teacher({ method: 'GET', url: `/api/rehearse/class?classId=${hw.classId}` })));
    expect(sheet.rowCount).toBe(klass.questions.length + 1);
    expect(sheet.getRow(2).getCell(5).value).toBe(klass.questions[0]!.missedBy);
    // 得分率 is a fraction shown as a percentage (0.631 as 63.1%), empty without marks, never text.
    klass.questions.forEach((q, i) => {
      const cell = sheet.getRow(i + 2).getCell(9);
      expect(cell.value).toBe(q.scoreRate === null ? null : Math.round(q.scoreRate * 1000) / 1000);
      expect(cell.numFmt).toBe('0.0%');
    });
    expect(klass.questions.some((q) => q.scoreRate !== null)).toBe(true);
  });

  it('prints the answer image cut from the scan for a subjective question in a student’s book PDF', async () => {
    // Student 0's subjective question 5 was scanned with its answer region: marked below full, it is in
    // their book with the image, and the book's PDF embeds exactly that image.
    const student = hw.students[0]!;
    expect((await markFor(0, 5, 4, '步骤')).statusCode).toBe(200);
    const b = await book(teacher, student.id, '&mastery=all');
    const entry = b.entries.find((e) => e.questionNo === 5 && e.homework.id === hw.id)!;
    expect(entry).toMatchObject({ hasImage: true, labels: null });
    const [answer] = await db().select({ regionPath: answers.regionPath }).from(answers).where(eq(answers.id, entry.answerId!));
    const stored = await app().storage.read(answer!.regionPath!);
    const { width, height } = await (await PDFDocument.create()).embedJpg(stored);

    const response = await teacher({ method: 'GET', url: `/api/rehearse/student.pdf?studentId=${student.id}&mastery=all` });
    expect(response.statusCode).toBe(200);
    const pdf = await PDFDocument.load(response.rawPayload);
    const images: { width: number; height: number; bytes: Uint8Array; page: number }[] = [];
    for (const [i, page] of pdf.getPages().entries()) {
      const xObjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
      for (const [, ref] of xObjects?.entries() ?? []) {
        const object = pdf.context.lookup(ref);
        if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
        const size = (key: string) => (object.dict.get(PDFName.of(key)) as PDFNumber).asNumber();
        images.push({ width: size('Width'), height: size('Height'), bytes: object.contents, page: i });
      }
    }
    // One image: the stored JPEG itself (pdf-lib keeps a JPEG's bytes), at its own size, on the page that
    // says it is the student's answer.
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ width, height });
    expect(Buffer.from(images[0]!.bytes).equals(Buffer.from(stored))).toBe(true);
    const doc = mupdf.Document.openDocument(response.rawPayload, 'application/pdf');
    const pageText = doc.loadPage(images[0]!.page).toStructuredText('preserve-whitespace').asText().replace(/\s+/g, '');
    expect(pageText).toContain('学生作答（扫描截图）');
    // Drawn on the page, not only carried in its resources: mupdf finds an image block on it.
    const pageImage = doc.loadPage(images[0]!.page).toStructuredText('preserve-images').asJSON();
    expect((JSON.parse(pageImage) as { blocks: { type: string }[] }).blocks.some((block) => block.type === 'image')).toBe(true);
  });
});
