/**
 * Homework (作业): a paper of the school assigned to some of its classes with dates and a status, and
 * the answer sheets printed for it. The sheet's template is laid out from the paper the first time it is
 * asked for and stored (answer_sheet_templates), so recognition later reads exactly what was printed.
 */
import { and, asc, count, desc, eq, gte, inArray, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AnswerSheetQuestion,
  type AnswerSheetSpec,
  type AnswerSheetTemplate,
  answerSheetSpecSchema,
  answerSheetTemplateSchema,
} from '../../../src/shared/contract/answer-sheet';
import type { AnswerSheetsPrintedEvent } from '../../../src/shared/contract/large-screen';
import {
  SCANNABLE_HOMEWORK_LIMIT,
  type Homework,
  type HomeworkStatus,
  type PaperDetail,
  type Paged,
  type answerSheetPdfQuerySchema,
  type homeworkCreateSchema,
  type homeworkListQuerySchema,
} from '../../../src/shared/contract/papers';
import { CLASS_TYPE, type ClassItem } from '../../../src/shared/contract/system';
import { layoutAnswerSheet } from '../../../src/shared/lib/answer-sheet-layout';
import type { Db } from '../../db/client';
import { pageOf } from './paged';
import {
  answerSheetPrints,
  answerSheetTemplates,
  classes,
  homework,
  homeworkClasses,
  homeworkClosures,
  markingAssignments,
  paperQuestions,
  papers,
  students,
  subjects,
} from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { syncHomeworkStatus } from '../marking/marking-progress';
import { renderAnswerSheetPdf, type AnswerSheetCopy } from '../answer-sheet/answer-sheet-pdf';
import { can, type ClassRef, classRefs, isManager, loadActor, requirePermission } from '../org/permissions';
import type { PaperService } from './paper.service';
import { requireClasses, requireOwnerOrAdmin, requireSchool, type SchoolScope } from './school-scope';

type HomeworkCreateData = z.output<typeof homeworkCreateSchema>;
type HomeworkListData = z.output<typeof homeworkListQuerySchema>;
type AnswerSheetPdfData = z.output<typeof answerSheetPdfQuerySchema>;

const BLANK_PATTERN = /_{6,}/g;
/** Most questions an answer sheet can hold (the answer-sheet contract's limit). */
export const MAX_SHEET_QUESTIONS = 200;
/** Homework rows read at a time while looking for the ones a teacher may scan. */
const SCANNABLE_SLICE = 500;

/** The answer-sheet spec of a homework: one entry per paper question, in paper order. */
export function answerSheetSpecOf(
  homeworkRow: { id: number; title: string },
  paper: PaperDetail,
  className?: string,
): AnswerSheetSpec {
  const questions: AnswerSheetQuestion[] = paper.sections.flatMap((section) =>
    section.questions.map(({ no, score, question }) => {
      const base = { no, type: question.type, score };
      if (question.type === 'single' || question.type === 'multiple') {
        return { ...base, optionCount: Math.min(8, Math.max(2, question.options.length)) };
      }
      if (question.type === 'blank') {
        return { ...base, blankCount: Math.min(12, Math.max(1, question.stem.match(BLANK_PATTERN)?.length ?? 1)) };
      }
      return base;
    }),
  );
  if (questions.length === 0) throw ApiError.badRequest('试卷没有试题，无法生成答题卡');
  if (questions.length > MAX_SHEET_QUESTIONS) throw ApiError.badRequest(`题量过大，答题卡最多 ${MAX_SHEET_QUESTIONS} 道题`);
  return answerSheetSpecSchema.parse({
    homeworkId: homeworkRow.id,
    title: homeworkRow.title.slice(0, 60),
    subjectName: paper.subjectName.slice(0, 20),
    paperSize: paper.paperSize,
    className: className?.slice(0, 30),
    questions,
  });
}

export type HomeworkService = ReturnType<typeof createHomeworkService>;

export const HOMEWORK_STATUS_MESSAGES = {
  draftCannotFinish: '作业尚未布置，不能设为已完成',
  /** A draft's sheets are not scanned: its classes have not been given it (POST /api/scan/batches). */
  draftCannotScan: '作业尚未布置，不能扫描',
} as const;

export function createHomeworkService({
  db,
  papers: paperService,
  statusChanged = async (orgId, homeworkId) => {
    await syncHomeworkStatus(db, orgId, homeworkId);
  },
  sheetsPrinted = () => {},
}: {
  db: Db;
  papers: PaperService;
  /** Brings the homework's status in line with its closure and progress (and tells the pages watching it). */
  statusChanged?: (orgId: number, homeworkId: number) => Promise<void>;
  /** Answer sheets were printed (recorded): tells the screens watching the homework. */
  sheetsPrinted?: (orgId: number, event: AnswerSheetsPrintedEvent) => void;
}) {
  async function requireHomework(scope: SchoolScope, id: number) {
    const [row] = await db
      .select()
      .from(homework)
      .where(and(eq(homework.id, id), eq(homework.orgId, scope.orgId)));
    if (!row) throw ApiError.notFound();
    return row;
  }

  /** Homework rows in the given order, with their classes, subject and paper totals. */
  async function describe(ids: number[]): Promise<Homework[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .select({
        id: homework.id,
        paperId: homework.paperId,
        title: homework.title,
        status: homework.status,
        startDate: homework.startDate,
        dueDate: homework.dueDate,
        createdAt: homework.createdAt,
        subjectId: subjects.id,
        subjectName: subjects.name,
        schoolYearId: papers.schoolYearId,
        paperSize: papers.paperSize,
      })
      .from(homework)
      .innerJoin(papers, eq(papers.id, homework.paperId))
      .innerJoin(subjects, eq(subjects.id, papers.subjectId))
      .where(inArray(homework.id, ids));
    const paperIds = [...new Set(rows.map((row) => row.paperId))];
    const [classRows, totals] = await Promise.all([
      db
        .select({
          homeworkId: homeworkClasses.homeworkId,
          id: classes.id,
          name: sql<string>`coalesce(${homeworkClasses.className}, ${classes.name})`,
        })
        .from(homeworkClasses)
        .innerJoin(classes, eq(classes.id, homeworkClasses.classId))
        .where(inArray(homeworkClasses.homeworkId, ids))
        .orderBy(asc(classes.sort), asc(classes.id)),
      db
        .select({
          paperId: paperQuestions.paperId,
          total: sql<number>`coalesce(sum(${paperQuestions.score}), 0)`,
          questions: count(),
        })
        .from(paperQuestions)
        .where(inArray(paperQuestions.paperId, paperIds))
        .groupBy(paperQuestions.paperId),
    ]);
    return ids.flatMap((id) => {
      const row = rows.find((r) => r.id === id);
      if (!row) return [];
      const total = totals.find((t) => t.paperId === row.paperId);
      return [
        {
          id: row.id,
          paperId: row.paperId,
          title: row.title,
          subject: { id: row.subjectId, name: row.subjectName },
          schoolYearId: row.schoolYearId,
          classes: classRows.filter((c) => c.homeworkId === id).map((c) => ({ id: c.id, name: c.name })),
          startDate: row.startDate,
          dueDate: row.dueDate,
          status: row.status as HomeworkStatus,
          paperSize: row.paperSize === 'A3' ? 'A3' : 'A4',
          totalScore: Math.round(Number(total?.total ?? 0) * 100) / 100,
          questionCount: total?.questions ?? 0,
          createdAt: row.createdAt.toISOString(),
        },
      ];
    });
  }

  async function describeOne(id: number) {
    const [one] = await describe([id]);
    if (!one) throw ApiError.notFound();
    return one;
  }

  /** The stored template of a homework, laid out and stored on first use. */
  async function templateOf(homeworkRow: typeof homework.$inferSelect): Promise<AnswerSheetTemplate> {
    const stored = async () => {
      const [row] = await db
        .select({ template: answerSheetTemplates.template })
        .from(answerSheetTemplates)
        .where(eq(answerSheetTemplates.homeworkId, homeworkRow.id))
        .orderBy(desc(answerSheetTemplates.version))
        .limit(1);
      return row ? answerSheetTemplateSchema.parse(row.template) : undefined;
    };
    const existing = await stored();
    if (existing) return existing;
    const template = layoutAnswerSheet(answerSheetSpecOf(homeworkRow, await paperService.detailOf(homeworkRow.paperId)));
    // Two first prints at once: the unique (homework, version) index keeps one, and both read it back.
    await db
      .insert(answerSheetTemplates)
      .values({ homeworkId: homeworkRow.id, version: template.version, template })
      .onConflictDoNothing();
    return (await stored())!;
  }

  return {
    async create(userId: number, input: HomeworkCreateData): Promise<Homework> {
      const scope = await requireSchool(db, userId);
      const paper = await paperService.requirePaper(scope, input.paperId).catch(() => {
        throw ApiError.badRequest('试卷不存在');
      });
      const klasses = await requireClasses(db, scope, input.classIds);
      const assign = {
        kind: 'homework.assign',
        subjectId: paper.subjectId,
        classes: await classRefs(db, scope.orgId, input.classIds),
      } as const;
      await requirePermission(db, userId, assign, scope.orgId);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(homework)
          .values({
            orgId: scope.orgId,
            paperId: paper.id,
            title: input.title ?? paper.title,
            status: input.status,
            startDate: input.startDate,
            dueDate: input.dueDate,
            createdBy: userId,
          })
          .returning({ id: homework.id });
        await tx.insert(homeworkClasses).values(klasses.map((k) => ({ homeworkId: row!.id, classId: k.id })));
        return row!.id;
      });
      return describeOne(id);
    },

    /**
     * The classes of the paper's school year the caller may assign it to: what create accepts, so the
     * dialog offers nothing the server would refuse. Archived classes are left out.
     */
    async assignableClasses(userId: number, paperId: number): Promise<ClassItem[]> {
      const scope = await requireSchool(db, userId);
      const paper = await paperService.requirePaper(scope, paperId);
      const actor = await loadActor(db, userId, scope.orgId);
      const rows = await db
        .select({ id: classes.id, name: classes.name, pid: classes.pid })
        .from(classes)
        .where(
          and(
            eq(classes.orgId, scope.orgId),
            eq(classes.type, CLASS_TYPE.klass),
            eq(classes.pid, paper.schoolYearId),
            isNull(classes.archivedAt),
          ),
        )
        .orderBy(asc(classes.sort), asc(classes.id));
      return rows
        .filter((row) =>
          can(actor, {
            kind: 'homework.assign',
            subjectId: paper.subjectId,
            classes: [{ classId: row.id, schoolYearId: row.pid }],
          }),
        )
        .map(({ id, name }) => ({ id, name }));
    },

    async list(userId: number, query: HomeworkListData): Promise<Paged<Homework>> {
      const scope = await requireSchool(db, userId);
      const filters: SQL[] = [eq(homework.orgId, scope.orgId)];
      if (query.status) filters.push(eq(homework.status, query.status));
      if (query.from) filters.push(gte(homework.startDate, query.from));
      if (query.to) filters.push(lte(homework.startDate, query.to));
      if (query.subjectId) {
        filters.push(
          inArray(homework.paperId, db.select({ id: papers.id }).from(papers).where(eq(papers.subjectId, query.subjectId))),
        );
      }
      if (query.schoolYearId) {
        filters.push(
          inArray(homework.paperId, db.select({ id: papers.id }).from(papers).where(eq(papers.schoolYearId, query.schoolYearId))),
        );
      }
      if (query.classId) {
        filters.push(
          inArray(
            homework.id,
            db.select({ id: homeworkClasses.homeworkId }).from(homeworkClasses).where(eq(homeworkClasses.classId, query.classId)),
          ),
        );
      }
      return pageOf(db, homework, homework.id, and(...filters), [desc(homework.createdAt), desc(homework.id)], query, describe);
    },

    /**
     * The homework the caller may scan (homework.work, the rule scan batches are created under), not
     * drafts, newest first: read in slices of SCANNABLE_SLICE until enough pass, each slice's classes
     * and the caller's marking duties loaded at once.
     */
    async scannable(userId: number): Promise<Homework[]> {
      const scope = await requireSchool(db, userId);
      const actor = await loadActor(db, userId, scope.orgId);
      const found: number[] = [];
      for (let offset = 0; found.length < SCANNABLE_HOMEWORK_LIMIT; offset += SCANNABLE_SLICE) {
        const rows = await db
          .select({ id: homework.id, createdBy: homework.createdBy, subjectId: papers.subjectId })
          .from(homework)
          .innerJoin(papers, eq(papers.id, homework.paperId))
          .where(and(eq(homework.orgId, scope.orgId), ne(homework.status, 'draft')))
          .orderBy(desc(homework.createdAt), desc(homework.id))
          .limit(isManager(actor) ? SCANNABLE_HOMEWORK_LIMIT : SCANNABLE_SLICE)
          .offset(offset);
        if (isManager(actor)) return describe(rows.map((row) => row.id));
        const ids = rows.map((row) => row.id);
        const [classRows, marked] =
          ids.length === 0
            ? [[], []]
            : await Promise.all([
                db
                  .select({ homeworkId: homeworkClasses.homeworkId, classId: homeworkClasses.classId, schoolYearId: classes.pid })
                  .from(homeworkClasses)
                  .innerJoin(classes, eq(classes.id, homeworkClasses.classId))
                  .where(inArray(homeworkClasses.homeworkId, ids)),
                db
                  .selectDistinct({ homeworkId: markingAssignments.homeworkId })
                  .from(markingAssignments)
                  .where(and(eq(markingAssignments.userId, userId), inArray(markingAssignments.homeworkId, ids))),
              ]);
        for (const row of rows) {
          const klasses: ClassRef[] = classRows
            .filter((c) => c.homeworkId === row.id)
            .map((c) => ({ classId: c.classId, schoolYearId: c.schoolYearId }));
          const markerIds = marked.some((m) => m.homeworkId === row.id) ? [userId] : [];
          const action = {
            kind: 'homework.work',
            ownerId: row.createdBy,
            markerIds,
            subjectId: row.subjectId,
            classes: klasses,
          } as const;
          if (found.length < SCANNABLE_HOMEWORK_LIMIT && can(actor, action)) found.push(row.id);
        }
        if (rows.length < SCANNABLE_SLICE) break;
      }
      return describe(found);
    },

    async detail(userId: number, id: number): Promise<Homework> {
      const scope = await requireSchool(db, userId);
      await requireHomework(scope, id);
      return describeOne(id);
    },

    async setStatus(userId: number, id: number, status: HomeworkStatus): Promise<Homework> {
      const scope = await requireSchool(db, userId);
      const row = await requireHomework(scope, id);
      await requireOwnerOrAdmin(db, scope, row.createdBy);
      // 已完成 is the closure (the same as 结束阅卷 on /correct), and any other status reopens it: the
      // statuses between follow from scanning and marking, so a status set here by hand would not last.
      if (status === 'finished') {
        if (row.status === 'draft') throw ApiError.badRequest(HOMEWORK_STATUS_MESSAGES.draftCannotFinish);
        await db.insert(homeworkClosures).values({ homeworkId: id, orgId: scope.orgId, closedBy: userId }).onConflictDoNothing();
      } else {
        await db.delete(homeworkClosures).where(eq(homeworkClosures.homeworkId, id));
        // Publishing a draft (布置) is the teacher's to say.
        if (row.status === 'draft' || status === 'draft') await db.update(homework).set({ status }).where(eq(homework.id, id));
      }
      if (status !== 'draft') await statusChanged(scope.orgId, id);
      return describeOne(id);
    },

    /** What the answer sheet prints (title, subject, questions): the simulated scanner draws sheets from it. */
    async answerSheetSpec(userId: number, id: number): Promise<AnswerSheetSpec> {
      const scope = await requireSchool(db, userId);
      const row = await requireHomework(scope, id);
      return answerSheetSpecOf(row, await paperService.detailOf(row.paperId));
    },

    async template(userId: number, id: number): Promise<AnswerSheetTemplate> {
      const scope = await requireSchool(db, userId);
      return templateOf(await requireHomework(scope, id));
    },

    /** The answer sheets as one PDF, and the file name to save it under. */
    async answerSheetPdf(userId: number, id: number, query: AnswerSheetPdfData): Promise<{ pdf: Uint8Array; fileName: string }> {
      const scope = await requireSchool(db, userId);
      const row = await requireHomework(scope, id);
      let klass: { id: number; name: string } | undefined;
      if (query.classId !== undefined) {
        const [assigned] = await db
          .select({ id: classes.id, name: classes.name })
          .from(homeworkClasses)
          .innerJoin(classes, eq(classes.id, homeworkClasses.classId))
          .where(and(eq(homeworkClasses.homeworkId, id), eq(homeworkClasses.classId, query.classId)));
        if (!assigned) throw ApiError.badRequest('该作业没有布置给这个班级');
        klass = assigned;
      }
      const template = await templateOf(row);
      const spec = answerSheetSpecOf(row, await paperService.detailOf(row.paperId), klass?.name);
      let sheets: AnswerSheetCopy[] = [{}];
      if (query.mode === 'student') {
        const roster = await db
          .select({ name: students.name, code: students.code })
          .from(students)
          .where(and(eq(students.orgId, scope.orgId), eq(students.classId, klass!.id), isNull(students.archivedAt)))
          .orderBy(asc(students.code));
        if (roster.length === 0) throw ApiError.badRequest('该班级还没有学生，请先导入花名册');
        sheets = roster.map((student) => ({ student }));
      }
      const pdf = await renderAnswerSheetPdf(spec, template, sheets);
      // Downloading or opening the PDF is printing it: the large screen's 已印 counts it.
      const [printed] = await db
        .insert(answerSheetPrints)
        .values({
          orgId: scope.orgId,
          homeworkId: id,
          classId: klass?.id ?? null,
          mode: query.mode,
          sheets: sheets.length,
          printedBy: userId,
        })
        .returning();
      sheetsPrinted(scope.orgId, {
        homeworkId: id,
        classId: printed!.classId,
        mode: query.mode,
        sheets: printed!.sheets,
        printedAt: printed!.printedAt.toISOString(),
      });
      return { pdf, fileName: `${row.title}${klass ? `-${klass.name}` : ''}-答题卡.pdf` };
    },
  };
}
