import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerSheetSpecSchema, answerSheetTemplateSchema } from '../../../src/shared/contract/answer-sheet';
import { layoutAnswerSheet } from '../../../src/shared/lib/answer-sheet-layout';
import {
  type PaperDetail,
  homeworkPageSchema,
  homeworkSchema,
  paperDetailSchema,
  paperDraftSchema,
  questionPageSchema,
} from '../../../src/shared/contract/papers';
import { answerSheetTemplates, questions } from '../../../server/db/schema';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor, createOtherSchool, unzip } from './papers-helper';

const MATH = 1;
const SCHOOL_YEAR = 1;
const CLASS_1 = 4;
const CLASS_2 = 5;

describe('the paper and homework endpoints', () => {
  const app = useTestApp();
  let teacher: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  let bankIds: { single: number[]; blank: number[]; subjective: number[] };

  beforeAll(async () => {
    teacher = await callerFor(app(), 'teacher');
    other = await createOtherSchool(app());
    const ids = async (type: string) =>
      questionPageSchema
        .parse((await teacher({ method: 'GET', url: `/api/questions?subjectId=${MATH}&type=${type}&pageSize=10` })).json().data)
        .list.map((q) => q.id);
    bankIds = { single: await ids('single'), blank: await ids('blank'), subjective: await ids('subjective') };
  });

  const paperInput = () => ({
    title: '期中模拟卷',
    subjectId: MATH,
    schoolYearId: SCHOOL_YEAR,
    paperSize: 'A4',
    sections: [
      { title: '一、单选题', questions: bankIds.single.slice(0, 4).map((questionId) => ({ questionId, score: 3 })) },
      { title: '二、填空题', questions: bankIds.blank.slice(0, 2).map((questionId) => ({ questionId, score: 4 })) },
      { title: '三、解答题', questions: bankIds.subjective.slice(0, 1).map((questionId) => ({ questionId, score: 12.5 })) },
    ],
  });

  async function createPaper(input = paperInput()): Promise<PaperDetail> {
    const response = await teacher({ method: 'POST', url: '/api/papers', payload: input });
    expect(response.json().msg).toBe('操作成功');
    return paperDetailSchema.parse(response.json().data);
  }

  describe('papers', () => {
    it('saves a composed paper, numbering its questions and adding up the score', async () => {
      const paper = await createPaper();
      expect(paper.totalScore).toBe(32.5);
      expect(paper.questionCount).toBe(7);
      expect(paper.sections.flatMap((s) => s.questions.map((q) => q.no))).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(paper.sections[2]!.questions[0]!.question.type).toBe('subjective');
      const again = paperDetailSchema.parse((await teacher({ method: 'GET', url: `/api/papers/${paper.id}` })).json().data);
      expect(again).toEqual(paper);
    });

    it('counts how many papers use a question', async () => {
      const before = paperDetailSchema.parse(
        (await teacher({ method: 'POST', url: '/api/papers', payload: paperInput() })).json().data,
      );
      const used = before.sections[0]!.questions[0]!.question.usageCount;
      const second = await createPaper();
      expect(second.sections[0]!.questions[0]!.question.usageCount).toBe(used + 1);
      await teacher({ method: 'DELETE', url: `/api/papers/${second.id}` });
      const reread = paperDetailSchema.parse((await teacher({ method: 'GET', url: `/api/papers/${before.id}` })).json().data);
      expect(reread.sections[0]!.questions[0]!.question.usageCount).toBe(used);
    });

    it.each([
      [
        'a question twice',
        (p: ReturnType<typeof paperInput>) => ({ ...p, sections: [p.sections[0]!, p.sections[0]!] }),
        '同一道试题不能在试卷中出现两次',
      ],
      [
        'an unknown question',
        (p: ReturnType<typeof paperInput>) => ({
          ...p,
          sections: [{ title: '一', questions: [{ questionId: 999999, score: 3 }] }],
        }),
        '试题不存在或不属于该学科',
      ],
      [
        'a question of another subject',
        (p: ReturnType<typeof paperInput>) => ({ ...p, subjectId: 2 }),
        '试题不存在或不属于该学科',
      ],
      [
        'a zero score',
        (p: ReturnType<typeof paperInput>) => ({
          ...p,
          sections: [{ title: '一', questions: [{ questionId: bankIds.single[0]!, score: 0 }] }],
        }),
        '分值必须大于 0',
      ],
      ['no sections', (p: ReturnType<typeof paperInput>) => ({ ...p, sections: [] }), '试卷至少要有一个大题'],
      ['an empty title', (p: ReturnType<typeof paperInput>) => ({ ...p, title: '' }), '试卷标题不能为空'],
      [
        'a school year of another school',
        (p: ReturnType<typeof paperInput>) => ({ ...p, schoolYearId: other.schoolYearId }),
        '学年不存在',
      ],
    ])('rejects a paper with %s (400)', async (_name, change, message) => {
      const { status, msg } = failure(await teacher({ method: 'POST', url: '/api/papers', payload: change(paperInput()) }));
      expect(status).toBe(400);
      expect(msg).toContain(message);
    });

    it('changes a paper', async () => {
      const paper = await createPaper();
      const input = { ...paperInput(), title: '期中模拟卷（改）', paperSize: 'A3', sections: paperInput().sections.slice(0, 1) };
      const changed = paperDetailSchema.parse(
        (await teacher({ method: 'PUT', url: `/api/papers/${paper.id}`, payload: input })).json().data,
      );
      expect(changed).toMatchObject({
        id: paper.id,
        title: '期中模拟卷（改）',
        paperSize: 'A3',
        questionCount: 4,
        totalScore: 12,
      });
    });

    it('hides a paper from another school (404 on read, change, delete and download)', async () => {
      const paper = await createPaper();
      expect(failure(await other.call({ method: 'GET', url: `/api/papers/${paper.id}` })).status).toBe(404);
      expect(failure(await other.call({ method: 'PUT', url: `/api/papers/${paper.id}`, payload: paperInput() })).status).toBe(
        404,
      );
      expect(failure(await other.call({ method: 'DELETE', url: `/api/papers/${paper.id}` })).status).toBe(404);
      expect(failure(await other.call({ method: 'POST', url: `/api/papers/${paper.id}/docx`, payload: {} })).status).toBe(404);
      expect((await teacher({ method: 'GET', url: `/api/papers/${paper.id}` })).statusCode).toBe(200);
    });

    it('deletes a paper no homework uses, and refuses one that homework uses', async () => {
      const unused = await createPaper();
      expect((await teacher({ method: 'DELETE', url: `/api/papers/${unused.id}` })).statusCode).toBe(200);
      expect(failure(await teacher({ method: 'GET', url: `/api/papers/${unused.id}` })).status).toBe(404);
      expect(failure(await teacher({ method: 'DELETE', url: '/api/papers/1' }))).toEqual({
        status: 400,
        msg: '试卷已布置为作业，不能删除',
      });
    });
  });

  describe('auto-compose', () => {
    it('draws the asked number of questions of each type and difficulty, one section per rule', async () => {
      const response = await teacher({
        method: 'POST',
        url: '/api/papers/auto-compose',
        payload: {
          subjectId: MATH,
          schoolYearId: SCHOOL_YEAR,
          rules: [
            { type: 'single', count: 5, score: 3 },
            { type: 'blank', difficulty: 2, count: 2, score: 4 },
          ],
        },
      });
      const draft = paperDraftSchema.parse(response.json().data);
      expect(draft.sections.map((s) => s.questions.length)).toEqual([5, 2]);
      expect(draft.sections[0]!.title).toBe('一、单选题（每题 3 分，共 15 分）');
      expect(draft.sections[0]!.questions.every((q) => q.question.type === 'single' && q.score === 3)).toBe(true);
      expect(draft.sections[1]!.questions.every((q) => q.question.type === 'blank' && q.question.difficulty === 2)).toBe(true);
      expect(draft.totalScore).toBe(23);
      const ids = draft.sections.flatMap((s) => s.questions.map((q) => q.questionId));
      expect(new Set(ids).size).toBe(7);
    });

    it('keeps to the chosen chapters and their sub-chapters', async () => {
      const tree = (await teacher({ method: 'GET', url: `/api/subjects/${MATH}/chapters` })).json().data;
      const unit = tree[0].children[0]; // 第一章 有理数
      const leaves: number[] = unit.children.map((c: { id: number }) => c.id);
      const draft = paperDraftSchema.parse(
        (
          await teacher({
            method: 'POST',
            url: '/api/papers/auto-compose',
            payload: {
              subjectId: MATH,
              schoolYearId: SCHOOL_YEAR,
              chapterIds: [unit.id],
              rules: [{ type: 'single', count: 3, score: 3 }],
            },
          })
        ).json().data,
      );
      expect(draft.sections[0]!.questions.every((q) => q.question.chapterIds.some((id) => leaves.includes(id)))).toBe(true);
    });

    it('answers 400 naming the rule the bank cannot fill', async () => {
      const response = await teacher({
        method: 'POST',
        url: '/api/papers/auto-compose',
        payload: {
          subjectId: MATH,
          schoolYearId: SCHOOL_YEAR,
          rules: [
            { type: 'single', count: 2, score: 3 },
            { type: 'subjective', difficulty: 5, count: 50, score: 10 },
          ],
        },
      });
      const { status, msg } = failure(response);
      expect(status).toBe(400);
      expect(msg).toMatch(/^第 2 条规则（解答题、难度困难）需要 50 道题，七年级上册、七年级下册中只有 \d+ 道符合条件的试题$/);
    });

    it('rejects rules without a count', async () => {
      const response = await teacher({
        method: 'POST',
        url: '/api/papers/auto-compose',
        payload: { subjectId: MATH, schoolYearId: SCHOOL_YEAR, rules: [{ type: 'single', count: 0, score: 3 }] },
      });
      expect(failure(response).msg).toContain('题数至少为 1');
    });
  });

  describe('Word download', () => {
    it('answers a .docx named after the paper, with the questions and, when asked, the answers', async () => {
      const paper = await createPaper();
      const response = await teacher({ method: 'POST', url: `/api/papers/${paper.id}/docx`, payload: { withAnswers: true } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="download.docx"; filename*=UTF-8''${encodeURIComponent('期中模拟卷.docx')}`,
      );
      const document = unzip(response.rawPayload).get('word/document.xml')!.toString('utf8');
      expect(document).toContain('期中模拟卷');
      expect(document).toContain('参考答案与解析');
      const first = paper.sections[0]!.questions[0]!.question;
      expect(document).toContain(first.stem.slice(0, 8));

      const plain = await teacher({ method: 'POST', url: `/api/papers/${paper.id}/docx`, payload: {} });
      expect(unzip(plain.rawPayload).get('word/document.xml')!.toString('utf8')).not.toContain('参考答案与解析');
    });

    it('refuses a paper of more than 200 questions with 题量过大，下载失败', async () => {
      const db = app().database.db;
      const orgId = 1; // the demo school
      const rows = await db
        .insert(questions)
        .values(
          Array.from({ length: 201 }, (_, i) => ({
            orgId,
            subjectId: MATH,
            type: 'judge',
            stem: `判断 ${i}`,
            answer: ['对'],
            difficulty: 1,
          })),
        )
        .returning({ id: questions.id });
      const big = await createPaper({
        ...paperInput(),
        title: '超大试卷',
        sections: [{ title: '一、判断题', questions: rows.map((r) => ({ questionId: r.id, score: 0.5 })) }],
      });
      expect(failure(await teacher({ method: 'POST', url: `/api/papers/${big.id}/docx`, payload: {} }))).toEqual({
        status: 400,
        msg: '题量过大，下载失败',
      });
    });

    it('rejects a bad body with 400', async () => {
      expect(failure(await teacher({ method: 'POST', url: '/api/papers/1/docx', payload: { withAnswers: 'yes' } })).status).toBe(
        400,
      );
    });
  });

  describe('homework', () => {
    let homeworkId: number;
    let paper: PaperDetail;

    beforeAll(async () => {
      paper = await createPaper();
    });

    it('assigns a paper to classes of the school with dates', async () => {
      const response = await teacher({
        method: 'POST',
        url: '/api/homework',
        payload: { paperId: paper.id, classIds: [CLASS_1, CLASS_2], startDate: '2026-03-02', dueDate: '2026-03-05' },
      });
      const created = homeworkSchema.parse(response.json().data);
      expect(created).toMatchObject({
        paperId: paper.id,
        title: '期中模拟卷',
        status: 'assigned',
        subject: { id: MATH, name: '数学' },
        classes: [
          { id: CLASS_1, name: '初一(1)班' },
          { id: CLASS_2, name: '初一(2)班' },
        ],
        totalScore: 32.5,
        questionCount: 7,
      });
      homeworkId = created.id;
    });

    it.each([
      ['a class of another school', () => ({ classIds: [other.classId] }), '班级不存在'],
      ['a school year instead of a class', () => ({ classIds: [SCHOOL_YEAR] }), '班级不存在'],
      ['no class', () => ({ classIds: [] }), '请至少选择一个班级'],
      ['a due date before the start', () => ({ dueDate: '2026-03-01' }), '截止日期不能早于开始日期'],
      ['a bad date', () => ({ startDate: '2026/03/02' }), '日期格式应为 YYYY-MM-DD'],
    ])('rejects homework with %s (400)', async (_name, change, message) => {
      const payload = { paperId: paper.id, classIds: [CLASS_1], startDate: '2026-03-02', dueDate: '2026-03-05', ...change() };
      const { status, msg } = failure(await teacher({ method: 'POST', url: '/api/homework', payload }));
      expect(status).toBe(400);
      expect(msg).toContain(message);
    });

    it("refuses to assign another school's paper", async () => {
      const payload = { paperId: paper.id, classIds: [other.classId], startDate: '2026-03-02', dueDate: '2026-03-05' };
      expect(failure(await other.call({ method: 'POST', url: '/api/homework', payload }))).toEqual({
        status: 400,
        msg: '试卷不存在',
      });
    });

    it('lists homework newest first, with filters and paging', async () => {
      const page = homeworkPageSchema.parse((await teacher({ method: 'GET', url: '/api/homework?pageSize=5' })).json().data);
      expect(page.total).toBe(13);
      expect(page.list).toHaveLength(5);
      expect(page.list[0]!.id).toBe(homeworkId);
      const created = page.list.map((h) => h.createdAt);
      expect([...created].sort().reverse()).toEqual(created);

      const finished = homeworkPageSchema.parse(
        (await teacher({ method: 'GET', url: '/api/homework?status=finished&pageSize=100' })).json().data,
      );
      expect(finished.total).toBeGreaterThan(0);
      expect(finished.list.every((h) => h.status === 'finished')).toBe(true);

      const math = homeworkPageSchema.parse(
        (await teacher({ method: 'GET', url: `/api/homework?subjectId=${MATH}&pageSize=100` })).json().data,
      );
      expect(math.list.every((h) => h.subject.name === '数学')).toBe(true);

      const class3 = homeworkPageSchema.parse(
        (await teacher({ method: 'GET', url: '/api/homework?classId=6&pageSize=100' })).json().data,
      );
      expect(class3.list.every((h) => h.classes.some((c) => c.id === 6))).toBe(true);
      expect(class3.list.some((h) => h.id === homeworkId)).toBe(false);

      const march = homeworkPageSchema.parse(
        (await teacher({ method: 'GET', url: '/api/homework?from=2026-03-01&to=2026-03-03' })).json().data,
      );
      expect(march.list.map((h) => h.id)).toEqual([homeworkId]);

      expect(failure(await teacher({ method: 'GET', url: '/api/homework?status=done' })).status).toBe(400);
      const theirs = homeworkPageSchema.parse((await other.call({ method: 'GET', url: '/api/homework' })).json().data);
      expect(theirs.total).toBe(0);
    });

    it('reads one homework and changes its status', async () => {
      expect(homeworkSchema.parse((await teacher({ method: 'GET', url: `/api/homework/${homeworkId}` })).json().data).id).toBe(
        homeworkId,
      );
      // 已完成 is the closure and lasts; any other status reopens it, and the status then follows from
      // scanning and marking (nothing is scanned yet: 已布置).
      const patch = (status: string) =>
        teacher({ method: 'PATCH', url: `/api/homework/${homeworkId}/status`, payload: { status } });
      expect(homeworkSchema.parse((await patch('finished')).json().data).status).toBe('finished');
      expect(homeworkSchema.parse((await patch('scanning')).json().data).status).toBe('assigned');
      expect(
        failure(await teacher({ method: 'PATCH', url: `/api/homework/${homeworkId}/status`, payload: { status: 'lost' } }))
          .status,
      ).toBe(400);
    });

    it('hides homework from another school (404)', async () => {
      expect(failure(await other.call({ method: 'GET', url: `/api/homework/${homeworkId}` })).status).toBe(404);
      expect(
        failure(await other.call({ method: 'PATCH', url: `/api/homework/${homeworkId}/status`, payload: { status: 'finished' } }))
          .status,
      ).toBe(404);
      expect(failure(await other.call({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet/template` })).status).toBe(
        404,
      );
      expect(failure(await other.call({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet.pdf` })).status).toBe(404);
      expect(failure(await other.call({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet/spec` })).status).toBe(404);
    });

    describe('answer sheets', () => {
      it('stores the template the first time and answers the same one afterwards', async () => {
        const db = app().database.db;
        const first = answerSheetTemplateSchema.parse(
          (await teacher({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet/template` })).json().data,
        );
        expect(first.homeworkId).toBe(homeworkId);
        expect(first.paperSize).toBe('A4');
        expect(first.pages.flatMap((p) => p.objective.map((o) => o.questionNo))).toEqual([1, 2, 3, 4]);
        expect(first.pages.flatMap((p) => p.regions.map((r) => r.questionNo))).toEqual([5, 6, 7]);
        const second = (await teacher({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet/template` })).json().data;
        expect(second).toEqual(first);
        const stored = await db.select().from(answerSheetTemplates);
        expect(stored.filter((row) => row.homeworkId === homeworkId)).toHaveLength(1);
      });

      it('answers the spec the sheet is laid out from, which lays out to the stored template', async () => {
        const spec = answerSheetSpecSchema.parse(
          (await teacher({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet/spec` })).json().data,
        );
        expect(spec.homeworkId).toBe(homeworkId);
        expect(spec.questions.map((q) => q.no)).toEqual([1, 2, 3, 4, 5, 6, 7]);
        const template = (await teacher({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet/template` })).json().data;
        expect(layoutAnswerSheet(spec)).toEqual(template);
      });

      it('locks the paper once its answer sheet exists', async () => {
        const { msg } = failure(await teacher({ method: 'PUT', url: `/api/papers/${paper.id}`, payload: paperInput() }));
        expect(msg).toBe('答题卡已生成，试卷不能再修改');
      });

      it('prints one sheet per student of the class, in code order', async () => {
        const template = answerSheetTemplateSchema.parse(
          (await teacher({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet/template` })).json().data,
        );
        const response = await teacher({
          method: 'GET',
          url: `/api/homework/${homeworkId}/answer-sheet.pdf?mode=student&classId=${CLASS_1}`,
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/pdf');
        expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect(response.headers['content-disposition']).toContain(
          encodeURIComponent('期中模拟卷-初一(1)班-答题卡.pdf').replace(
            /[()]/g,
            (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
          ),
        );
        const pdf = await PDFDocument.load(response.rawPayload);
        expect(pdf.getPageCount()).toBe(40 * template.pages.length);
      });

      it('prints one generic sheet', async () => {
        const response = await teacher({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet.pdf?mode=class` });
        expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect((await PDFDocument.load(response.rawPayload)).getPageCount()).toBe(1);
      });

      it('refuses a class the homework was not assigned to, and per-student sheets without a class', async () => {
        expect(
          failure(await teacher({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet.pdf?mode=student&classId=7` })),
        ).toEqual({
          status: 400,
          msg: '该作业没有布置给这个班级',
        });
        expect(
          failure(await teacher({ method: 'GET', url: `/api/homework/${homeworkId}/answer-sheet.pdf?mode=student` })).msg,
        ).toContain('按学生打印时必须选择班级');
      });
    });
  });
});
