/**
 * Marking (阅卷) of a homework's manual questions: the overview (per question and per teacher), the
 * owner's assignments and double-marking settings, handing out one answer at a time (an atomic claim
 * with an expiry, so two teachers never hold the same task), taking scores (0..full score, never
 * overwriting another teacher's, idempotent on retry, one's own earlier score may be changed), the
 * marker's history, the owner's arbitration list and the answer images. The rules that turn marks into
 * final scores live in double-marking.ts and answer-scoring.ts.
 *
 * Who marks: the teachers the owner assigned to the question; without any assignment, the owner. A third
 * marking may also be taken by the owner (or an admin of the school); arbitration (round 4) only by them.
 */
import { and, asc, count, desc, eq, getTableColumns, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  type AbsenceUpdate,
  type AssignmentsUpdate,
  type ClosureUpdate,
  MARKING_MESSAGES,
  type MarkingOverview,
  type MarkingTask,
  type OwnQuestion,
  type ScoreSubmit,
  scoreSubmitSchema,
} from '../../../src/shared/contract/marking';
import type { Db } from '../../db/client';
import {
  answers,
  homeworkAbsences,
  homeworkClosures,
  markingAssignments,
  markingHomeworkSettings,
  markingQuestionSettings,
  markingTasks,
  memberships,
  questions,
  questionScores,
  teachingAssignments,
  users,
} from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import type { FileStorage } from '../storage/file-storage';
import { loadRehearseSettings } from '../rehearse/wrong-book.service';
import { type Actor, assertWorksOn, can, loadActor } from '../org/permissions';
import { lockAnswers, rescoreAnswers, rescoreQuestions } from './answer-scoring';
import { ARBITRATION_ROUND } from './double-marking';
import {
  type HomeworkContext,
  type MarkingContextLoader,
  markersOf,
  questionCountOf,
  settingsOf,
  sheetOfStudent,
} from './marking-context';
import { type ProgressNotifier, recognitionProgress } from './marking-progress';
import { homeworkStudentStatuses, summariseStudents } from './student-status';

/** How long a claimed answer stays reserved for its marker. */
export const MARKING_CLAIM_SECONDS = 600;
export const HISTORY_LIMIT = 200;
const CONFLICT = 409;
/** Advisory-lock namespace of one marker's claims (two int4 keys: namespace, user). */
const CLAIM_LOCK_NAMESPACE = 7_301;

type TaskRow = typeof markingTasks.$inferSelect;

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

function intArray(values: number[]) {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::int[]`;
}

export type MarkingService = ReturnType<typeof createMarkingService>;

export function createMarkingService(deps: {
  db: Db;
  storage: FileStorage;
  contexts: MarkingContextLoader;
  notifier: ProgressNotifier;
}) {
  const { db, storage, contexts, notifier } = deps;

  async function assignedOf(homeworkId: number, questionNo?: number) {
    return db
      .select({ questionNo: markingAssignments.questionNo, userId: markingAssignments.userId })
      .from(markingAssignments)
      .where(
        and(
          eq(markingAssignments.homeworkId, homeworkId),
          questionNo === undefined ? undefined : eq(markingAssignments.questionNo, questionNo),
        ),
      );
  }

  /** The homework's owner or an admin of its school: assigns, closes, arbitrates and marks third rounds. */
  function leads(actor: Actor, context: HomeworkContext): boolean {
    return can(actor, { kind: 'owned.edit', ownerId: context.homework.createdBy });
  }

  /**
   * Which open tasks of a question a user may take. A question the owner assigned (任务分配) goes to its
   * markers whatever the scan said: `rounds` on every answer (`anyClass`). Otherwise answers scanned
   * 按学科分配 (class set) go to the teachers of the paper's subject in that class (rounds 1..3 in
   * `classes`) and the rest to the owner (`rounds`); `lead` (owner, admins): third markings of any.
   */
  type Reach = { rounds: number[]; classes: number[]; lead: boolean; anyClass: boolean };

  /** What this user may take on the question, or a 403. */
  function reachFor(context: HomeworkContext, questionNo: number, actor: Actor): Reach {
    const reach = reachOrNone(context, questionNo, actor);
    if (reach === null) throw new ApiError(403, MARKING_MESSAGES.notAssigned);
    return reach;
  }

  /** Like reachFor, but none instead of a 403. */
  function reachOrNone(context: HomeworkContext, questionNo: number, actor: Actor): Reach | null {
    const lead = leads(actor, context);
    const marker = markersOf(context, questionNo).includes(actor.userId);
    const anyClass = (context.assignments.get(questionNo) ?? []).length > 0;
    const classes = anyClass
      ? []
      : actor.teaches.filter((pair) => pair.subjectId === context.subjectId).map((pair) => pair.classId);
    if (!marker && !lead && classes.length === 0) return null;
    return { rounds: marker ? [1, 2, 3] : lead ? [3] : [], classes, lead, anyClass };
  }

  /** The same rule in SQL, on the marking_tasks row named `alias`. */
  function reachSql(alias: string, reach: Reach) {
    const t = sql.raw(alias);
    return sql`(((${reach.anyClass} or ${t}.class_id is null) and ${t}.round = any(${intArray(reach.rounds)}))
      or (${t}.class_id = any(${intArray(reach.classes)}) and ${t}.round <= 3)
      or (${reach.lead} and ${t}.round = 3))`;
  }

  function inReach(reach: Reach, task: { classId: number | null; round: number }): boolean {
    if (reach.lead && task.round === 3) return true;
    if (reach.anyClass || task.classId === null) return reach.rounds.includes(task.round);
    return reach.classes.includes(task.classId) && task.round <= 3;
  }

  function requireManual(context: HomeworkContext, questionNo: number) {
    const question = context.questions.get(questionNo);
    if (!question) throw new ApiError(404, MARKING_MESSAGES.unknownQuestion);
    if (!question.manual) throw ApiError.badRequest(MARKING_MESSAGES.notSubjective);
    return question;
  }

  /** Open tasks of the question this user could take now (their own claim included). */
  function availableTo(userId: number, reach: Reach) {
    return sql`${markingTasks.score} is null and ${reachSql('marking_tasks', reach)}
      and (${markingTasks.claimedBy} is null or ${markingTasks.claimedBy} = ${userId} or ${markingTasks.claimExpiresAt} < now())
      and not exists (select 1 from answers a where a.id = ${markingTasks.answerId} and (a.needs_review or a.missing))
      and not exists (select 1 from marking_tasks o where o.answer_id = ${markingTasks.answerId} and o.id <> ${markingTasks.id}
        and (o.marker_id = ${userId} or (o.claimed_by = ${userId} and o.claim_expires_at > now())))`;
  }

  /** The tasks of a question that this teacher has scored (their progress and their history). */
  function scoredBy(homeworkId: number, questionNo: number, userId: number) {
    return and(
      eq(markingTasks.homeworkId, homeworkId),
      eq(markingTasks.questionNo, questionNo),
      eq(markingTasks.markerId, userId),
      isNotNull(markingTasks.score),
    );
  }

  async function progressOf(homeworkId: number, questionNo: number, userId: number, reach: Reach | null) {
    const [mine] = await db
      .select({ value: count() })
      .from(markingTasks)
      .where(scoredBy(homeworkId, questionNo, userId));
    const [left] =
      reach === null
        ? [{ value: 0 }]
        : await db
            .select({ value: count() })
            .from(markingTasks)
            .where(
              and(eq(markingTasks.homeworkId, homeworkId), eq(markingTasks.questionNo, questionNo), availableTo(userId, reach)),
            );
    return { mine: mine?.value ?? 0, left: left?.value ?? 0 };
  }

  /**
   * A personalised set: each answer's own question (the student's paper at that number), by answer id.
   * Empty for an ordinary homework, where the number says which question it is.
   */
  async function ownQuestionsOf(
    context: HomeworkContext,
    tasks: Pick<TaskRow, 'answerId' | 'questionNo'>[],
  ): Promise<Map<number, OwnQuestion>> {
    const result = new Map<number, OwnQuestion>();
    if (context.studentSheets.size === 0 || tasks.length === 0) return result;
    const owners = await db
      .select({ id: answers.id, studentId: answers.studentId })
      .from(answers)
      .where(inArray(answers.id, [...new Set(tasks.map((t) => t.answerId))]));
    const studentOf = new Map(owners.map((o) => [o.id, o.studentId]));
    const picked = new Map<number, { questionId: number; score: number }>();
    for (const task of tasks) {
      const own = sheetOfStudent(context, studentOf.get(task.answerId)).questions.get(task.questionNo);
      if (own?.questionId !== undefined) picked.set(task.answerId, { questionId: own.questionId, score: own.score });
    }
    if (picked.size === 0) return result;
    const rows = await db
      .select({
        id: questions.id,
        type: questions.type,
        stem: questions.stem,
        options: questions.options,
        answer: questions.answer,
        analysis: questions.analysis,
      })
      .from(questions)
      .where(inArray(questions.id, [...new Set([...picked.values()].map((p) => p.questionId))]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [answerId, { questionId, score }] of picked) {
      const row = byId.get(questionId);
      if (!row) continue;
      const { id: _id, ...content } = row;
      result.set(answerId, { questionId, ...content, score });
    }
    return result;
  }

  function view(
    task: TaskRow,
    maxScore: number,
    progress: MarkingTask['progress'],
    otherScores?: number[],
    ownQuestion?: OwnQuestion,
  ): MarkingTask {
    return {
      taskId: task.id,
      homeworkId: task.homeworkId,
      questionNo: task.questionNo,
      answerId: task.answerId,
      maxScore: ownQuestion?.score ?? maxScore,
      round: task.round,
      score: task.score,
      annotations: task.annotations,
      problem: task.problem,
      errorCause: task.errorCause,
      ...(otherScores ? { otherScores } : {}),
      ...(ownQuestion ? { ownQuestion } : {}),
      progress,
    };
  }

  async function otherScoresOf(answerIds: number[]): Promise<Map<number, number[]>> {
    const result = new Map<number, number[]>();
    if (answerIds.length === 0) return result;
    const rows = await db
      .select({ answerId: markingTasks.answerId, score: markingTasks.score })
      .from(markingTasks)
      .where(
        and(
          inArray(markingTasks.answerId, answerIds),
          isNotNull(markingTasks.score),
          sql`${markingTasks.round} < ${ARBITRATION_ROUND}`,
        ),
      )
      .orderBy(asc(markingTasks.round));
    for (const row of rows) result.set(row.answerId, [...(result.get(row.answerId) ?? []), row.score!]);
    return result;
  }

  async function overview(userId: number, homeworkId: number): Promise<MarkingOverview> {
    const scope = await loadActor(db, userId);
    const context = await contexts.require(scope.orgId, homeworkId);
    const owner = context.homework.createdBy;
    const [assigned, bySubject, answerCounts, doneCounts, taskStats, markedCounts, teachers, recognition] = await Promise.all([
      assignedOf(homeworkId),
      db
        .selectDistinct({ questionNo: markingTasks.questionNo, userId: teachingAssignments.userId })
        .from(markingTasks)
        .innerJoin(
          teachingAssignments,
          and(eq(teachingAssignments.classId, markingTasks.classId), eq(teachingAssignments.subjectId, context.subjectId)),
        )
        .where(eq(markingTasks.homeworkId, homeworkId)),
      db
        .select({ questionNo: answers.questionNo, value: count() })
        .from(answers)
        .where(eq(answers.homeworkId, homeworkId))
        .groupBy(answers.questionNo),
      db
        .select({ questionNo: questionScores.questionNo, value: count() })
        .from(questionScores)
        .where(eq(questionScores.homeworkId, homeworkId))
        .groupBy(questionScores.questionNo),
      db
        .select({
          questionNo: markingTasks.questionNo,
          arbitration:
            sql<number>`count(distinct ${markingTasks.answerId}) filter (where ${markingTasks.round} = ${ARBITRATION_ROUND} and ${markingTasks.score} is null)`.mapWith(
              Number,
            ),
          problems: sql<number>`count(distinct ${markingTasks.answerId}) filter (where ${markingTasks.problem})`.mapWith(Number),
        })
        .from(markingTasks)
        .where(eq(markingTasks.homeworkId, homeworkId))
        .groupBy(markingTasks.questionNo),
      db
        .select({ questionNo: markingTasks.questionNo, userId: markingTasks.markerId, value: count() })
        .from(markingTasks)
        .where(and(eq(markingTasks.homeworkId, homeworkId), isNotNull(markingTasks.markerId), isNotNull(markingTasks.score)))
        .groupBy(markingTasks.questionNo, markingTasks.markerId),
      db
        .select({ userId: users.id, name: users.nickname })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(memberships.orgId, scope.orgId))
        .orderBy(asc(users.id)),
      recognitionProgress(db, scope.orgId, homeworkId),
    ]);
    const [statuses, [closure]] = await Promise.all([
      homeworkStudentStatuses(db, scope.orgId, homeworkId, questionCountOf(context)),
      db.select({ id: homeworkClosures.homeworkId }).from(homeworkClosures).where(eq(homeworkClosures.homeworkId, homeworkId)),
    ]);
    const nameOf = async (ids: number[]) => {
      const missing = ids.filter((id) => !teachers.some((t) => t.userId === id));
      const extra =
        missing.length === 0
          ? []
          : await db.select({ userId: users.id, name: users.nickname }).from(users).where(inArray(users.id, missing));
      return new Map([...teachers, ...extra].map((t) => [t.userId, t.name]));
    };
    const everyone = [
      ...new Set([...assigned.map((a) => a.userId), ...bySubject.map((b) => b.userId), ...markedCounts.map((m) => m.userId!)]),
    ];
    const names = await nameOf(everyone);
    return {
      homeworkId,
      title: context.homework.title,
      status: context.homework.status as MarkingOverview['status'],
      isOwner: leads(scope, context),
      partialCredit: context.partialCredit,
      questions: [...context.questions.values()].map((question) => {
        const settings = settingsOf(context, question.no);
        const assignedIds = assigned.filter((a) => a.questionNo === question.no).map((a) => a.userId);
        const subjectIds =
          assignedIds.length > 0 ? [] : bySubject.filter((b) => b.questionNo === question.no).map((b) => b.userId);
        const markerIds = question.manual
          ? [...(assignedIds.length > 0 ? assignedIds : owner === null ? [] : [owner]), ...subjectIds]
          : [];
        const marked = markedCounts.filter((m) => m.questionNo === question.no);
        const ids = [...new Set([...markerIds, ...marked.map((m) => m.userId!)])];
        const stats = taskStats.find((t) => t.questionNo === question.no);
        return {
          questionNo: question.no,
          type: question.type,
          score: question.score,
          manual: question.manual,
          total: answerCounts.find((c) => c.questionNo === question.no)?.value ?? 0,
          done: doneCounts.find((c) => c.questionNo === question.no)?.value ?? 0,
          arbitration: stats?.arbitration ?? 0,
          problems: stats?.problems ?? 0,
          doubleMarking: settings.doubleMarking,
          tolerance: settings.tolerance,
          assigned: assignedIds,
          bySubject: subjectIds,
          markers: ids.map((id) => ({
            userId: id,
            name: names.get(id) ?? '',
            marked: marked.find((m) => m.userId === id)?.value ?? 0,
          })),
        };
      }),
      recognition: {
        stored: recognition.stored,
        recognised: recognition.recognised,
        pending: recognition.pending,
        review: recognition.review,
      },
      teachers,
      students: summariseStudents(statuses),
      closed: closure !== undefined,
    };
  }

  return {
    overview,

    async updateAssignments(userId: number, homeworkId: number, input: AssignmentsUpdate): Promise<MarkingOverview> {
      const scope = await loadActor(db, userId);
      const context = await contexts.require(scope.orgId, homeworkId);
      if (!leads(scope, context)) throw new ApiError(403, MARKING_MESSAGES.notOwner);
      const seen = new Set<number>();
      for (const entry of input.questions) {
        const label = `第 ${entry.questionNo} 题`;
        if (seen.has(entry.questionNo)) throw ApiError.badRequest(`${label}重复`);
        seen.add(entry.questionNo);
        const question = context.questions.get(entry.questionNo);
        if (!question) throw ApiError.badRequest(`${label}：${MARKING_MESSAGES.unknownQuestion}`);
        if (!question.manual) throw ApiError.badRequest(`${label}：${MARKING_MESSAGES.notSubjective}`);
        if (entry.doubleMarking && new Set(entry.userIds).size < 2) {
          throw ApiError.badRequest(`${label}：${MARKING_MESSAGES.doubleMarkingNeedsTwo}`);
        }
        if (entry.tolerance > question.score) throw ApiError.badRequest(`${label}：${MARKING_MESSAGES.toleranceTooLarge}`);
      }
      const userIds = [...new Set(input.questions.flatMap((q) => q.userIds))];
      if (userIds.length > 0) {
        const members = await db
          .select({ userId: memberships.userId })
          .from(memberships)
          .where(and(eq(memberships.orgId, scope.orgId), inArray(memberships.userId, userIds)));
        if (members.length !== userIds.length) throw ApiError.badRequest(MARKING_MESSAGES.notTeacher);
      }
      const questionNos = [...seen];
      // The context as it will be once saved (settings are read fresh by the loader; built here because
      // PGlite has one connection, which the transaction below holds).
      const updated: HomeworkContext = {
        ...context,
        partialCredit: input.partialCredit ?? context.partialCredit,
        settings: new Map([
          ...context.settings,
          ...input.questions.map((q) => [q.questionNo, { doubleMarking: q.doubleMarking, tolerance: q.tolerance }] as const),
        ]),
        assignments: new Map<number, number[]>([
          ...context.assignments,
          ...input.questions.map((q): [number, number[]] => [q.questionNo, [...new Set(q.userIds)]]),
        ]),
      };
      // Settings changed: every answer of those questions is held to the new rules.
      const rescored = [
        ...questionNos,
        ...(input.partialCredit !== undefined && input.partialCredit !== context.partialCredit
          ? [...updated.questions.values()].filter((q) => q.type === 'multiple').map((q) => q.no)
          : []),
      ];
      // One transaction: the assignments, the claims of teachers no longer assigned, and the re-scoring.
      await db.transaction(async (transaction) => {
        const tx = transaction as unknown as Db;
        await tx
          .delete(markingAssignments)
          .where(and(eq(markingAssignments.homeworkId, homeworkId), inArray(markingAssignments.questionNo, questionNos)));
        const rows = input.questions.flatMap((q) =>
          [...new Set(q.userIds)].map((id) => ({ homeworkId, questionNo: q.questionNo, userId: id, orgId: scope.orgId })),
        );
        if (rows.length > 0) await tx.insert(markingAssignments).values(rows);
        for (const q of input.questions) {
          await tx
            .insert(markingQuestionSettings)
            .values({
              homeworkId,
              questionNo: q.questionNo,
              orgId: scope.orgId,
              doubleMarking: q.doubleMarking,
              tolerance: q.tolerance,
            })
            .onConflictDoUpdate({
              target: [markingQuestionSettings.homeworkId, markingQuestionSettings.questionNo],
              set: { doubleMarking: q.doubleMarking, tolerance: q.tolerance },
            });
          // A teacher taken off the question lets go of the answer they hold (the owner keeps third
          // markings and arbitration, which are theirs whoever is assigned).
          const markers = markersOf(updated, q.questionNo);
          const owner = context.homework.createdBy;
          await tx
            .update(markingTasks)
            .set({ claimedBy: null, claimExpiresAt: null })
            .where(
              and(
                eq(markingTasks.homeworkId, homeworkId),
                eq(markingTasks.questionNo, q.questionNo),
                isNull(markingTasks.score),
                isNotNull(markingTasks.claimedBy),
                markers.length > 0 ? sql`not (${markingTasks.claimedBy} = any(${intArray(markers)}))` : undefined,
                owner === null ? undefined : sql`not (${markingTasks.claimedBy} = ${owner} and ${markingTasks.round} >= 3)`,
              ),
            );
        }
        if (input.partialCredit !== undefined) {
          await tx
            .insert(markingHomeworkSettings)
            .values({ homeworkId, orgId: scope.orgId, partialCredit: input.partialCredit })
            .onConflictDoUpdate({ target: markingHomeworkSettings.homeworkId, set: { partialCredit: input.partialCredit } });
        }
        await rescoreQuestions(tx, updated, rescored);
      });
      await notifier.homeworkChanged(scope.orgId, homeworkId);
      return overview(userId, homeworkId);
    },

    /** Marks a student of the homework absent (缺考), or undoes it; a scanned student cannot be absent. */
    async setAbsence(userId: number, homeworkId: number, studentId: number, input: AbsenceUpdate): Promise<MarkingOverview> {
      const scope = await loadActor(db, userId);
      const context = await contexts.require(scope.orgId, homeworkId);
      await assertWorksOn(db, scope, context.homework);
      const statuses = await homeworkStudentStatuses(db, scope.orgId, homeworkId, questionCountOf(context));
      const student = statuses.find((s) => s.studentId === studentId);
      if (!student) throw ApiError.badRequest(MARKING_MESSAGES.notInHomework);
      if (input.absent) {
        if (student.status === 'marking' || student.status === 'complete') {
          throw ApiError.badRequest(MARKING_MESSAGES.alreadyScanned);
        }
        await db
          .insert(homeworkAbsences)
          .values({ homeworkId, studentId, orgId: scope.orgId, markedBy: userId })
          .onConflictDoNothing();
      } else {
        await db
          .delete(homeworkAbsences)
          .where(and(eq(homeworkAbsences.homeworkId, homeworkId), eq(homeworkAbsences.studentId, studentId)));
      }
      await notifier.homeworkChanged(scope.orgId, homeworkId);
      return overview(userId, homeworkId);
    },

    /** The owner ends marking (the homework is 已完成 whatever is missing), or reopens it. */
    async setClosure(userId: number, homeworkId: number, input: ClosureUpdate): Promise<MarkingOverview> {
      const scope = await loadActor(db, userId);
      const context = await contexts.require(scope.orgId, homeworkId);
      if (!leads(scope, context)) throw new ApiError(403, MARKING_MESSAGES.notOwnerClose);
      if (input.closed) {
        await db.insert(homeworkClosures).values({ homeworkId, orgId: scope.orgId, closedBy: userId }).onConflictDoNothing();
      } else {
        await db.delete(homeworkClosures).where(eq(homeworkClosures.homeworkId, homeworkId));
      }
      await notifier.homeworkChanged(scope.orgId, homeworkId);
      return overview(userId, homeworkId);
    },

    async next(userId: number, homeworkId: number, questionNo: number, skip: number[] = []): Promise<MarkingTask | null> {
      const scope = await loadActor(db, userId);
      const context = await contexts.require(scope.orgId, homeworkId);
      const question = requireManual(context, questionNo);
      const reach = reachFor(context, questionNo, scope);
      const skipped = [...new Set(skip)];
      const task = await db.transaction(async (transaction) => {
        const tx = transaction as unknown as Db;
        // One marker's claims one at a time: two tabs never take two rounds of one answer.
        await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_NAMESPACE}, ${userId})`);
        if (skipped.length > 0) {
          await tx
            .update(markingTasks)
            .set({ claimedBy: null, claimExpiresAt: null })
            .where(and(inArray(markingTasks.id, skipped), eq(markingTasks.claimedBy, userId), isNull(markingTasks.score)));
        }
        const notSkipped = skipped.length > 0 ? sql`not (${markingTasks.id} = any(${intArray(skipped)}))` : sql`true`;
        const expiry = sql`now() + make_interval(secs => ${MARKING_CLAIM_SECONDS})`;
        const [held] = await tx
          .update(markingTasks)
          .set({ claimExpiresAt: expiry })
          .where(
            sql`${markingTasks.id} = (select t.id from marking_tasks t where t.homework_id = ${homeworkId}
              and t.question_no = ${questionNo} and t.claimed_by = ${userId} and t.score is null
              and t.claim_expires_at > now() and ${reachSql('t', reach)}
              and not (t.id = any(${intArray(skipped.length > 0 ? skipped : [0])}))
              order by t.id limit 1)`,
          )
          .returning();
        if (held) return held;
        const candidates = rowsOf<{ id: number }>(
          await tx.execute(sql`select ${markingTasks.id} as id from ${markingTasks}
            where ${markingTasks.homeworkId} = ${homeworkId} and ${markingTasks.questionNo} = ${questionNo}
              and ${availableTo(userId, reach)} and ${notSkipped}
            order by case when ${markingTasks.round} = 3 then 0 else 1 end, ${markingTasks.answerId}, ${markingTasks.round}
            limit 1
            for update skip locked`),
        );
        const candidate = candidates[0];
        if (!candidate) return null;
        const [claimed] = await tx
          .update(markingTasks)
          .set({ claimedBy: userId, claimExpiresAt: expiry })
          .where(eq(markingTasks.id, candidate.id))
          .returning();
        return claimed ?? null;
      });
      if (!task) return null;
      const own = (await ownQuestionsOf(context, [task])).get(task.answerId);
      return view(task, question.score, await progressOf(homeworkId, questionNo, userId, reach), undefined, own);
    },

    async score(userId: number, taskId: number, input: ScoreSubmit): Promise<MarkingTask> {
      const scope = await loadActor(db, userId);
      const submitted = scoreSubmitSchema.parse(input);
      const [found] = await db
        .select()
        .from(markingTasks)
        .where(and(eq(markingTasks.id, taskId), eq(markingTasks.orgId, scope.orgId)));
      if (!found) throw ApiError.notFound();
      const context = await contexts.require(scope.orgId, found.homeworkId);
      const question = requireManual(context, found.questionNo);
      // In a personalised set the full score is that student's own question's.
      const own = (await ownQuestionsOf(context, [found])).get(found.answerId);
      const fullScore = own?.score ?? question.score;
      if (submitted.score > fullScore) throw ApiError.badRequest(MARKING_MESSAGES.scoreOutOfRange);
      // An error cause only where marks were lost, and only one of the school's list.
      const errorCause = submitted.score < fullScore ? (submitted.errorCause ?? null) : null;
      if (errorCause !== null && !(await loadRehearseSettings(db, scope.orgId)).errorCauses.includes(errorCause)) {
        throw ApiError.badRequest(MARKING_MESSAGES.unknownErrorCause);
      }
      const isOwner = leads(scope, context);
      const reach = found.round === ARBITRATION_ROUND ? null : reachOrNone(context, found.questionNo, scope);

      const saved = await db.transaction(async (transaction) => {
        const tx = transaction as unknown as Db;
        await lockAnswers(tx, [found.answerId]);
        const [task] = await tx
          .select({
            ...getTableColumns(markingTasks),
            claimActive: sql<boolean>`coalesce(${markingTasks.claimExpiresAt} > now(), false)`,
          })
          .from(markingTasks)
          .where(eq(markingTasks.id, taskId))
          .for('update');
        if (!task) throw new ApiError(CONFLICT, MARKING_MESSAGES.taskGone);
        if (task.score !== null) {
          // Scored already: the same marker may change it (history) or retry; nobody else may.
          if (task.markerId !== userId) throw new ApiError(CONFLICT, MARKING_MESSAGES.taskTaken);
        } else {
          if (task.claimedBy !== null && task.claimedBy !== userId && task.claimActive) {
            throw new ApiError(CONFLICT, MARKING_MESSAGES.taskTaken);
          }
          if (task.round === ARBITRATION_ROUND) {
            if (!isOwner) throw new ApiError(403, MARKING_MESSAGES.notArbiter);
          } else {
            if (reach === null || !inReach(reach, task)) throw new ApiError(403, MARKING_MESSAGES.notAssigned);
            const [mineElsewhere] = await tx
              .select({ id: markingTasks.id })
              .from(markingTasks)
              .where(
                and(
                  eq(markingTasks.answerId, task.answerId),
                  eq(markingTasks.markerId, userId),
                  sql`${markingTasks.id} <> ${task.id}`,
                  sql`${markingTasks.round} < ${ARBITRATION_ROUND}`,
                ),
              );
            if (mineElsewhere) throw new ApiError(CONFLICT, MARKING_MESSAGES.sameMarker);
          }
        }
        const [updated] = await tx
          .update(markingTasks)
          .set({
            score: submitted.score,
            annotations: submitted.annotations,
            problem: submitted.problem,
            errorCause,
            markerId: userId,
            scoredAt: sql`now()`,
            claimedBy: null,
            claimExpiresAt: null,
          })
          .where(eq(markingTasks.id, taskId))
          .returning();
        await rescoreAnswers(tx, context, [task.answerId]);
        return updated!;
      });
      await notifier.questionChanged(scope.orgId, saved.homeworkId, saved.questionNo);
      return view(
        saved,
        question.score,
        await progressOf(saved.homeworkId, saved.questionNo, userId, reach),
        saved.round === ARBITRATION_ROUND ? ((await otherScoresOf([saved.answerId])).get(saved.answerId) ?? []) : undefined,
        own,
      );
    },

    async history(userId: number, homeworkId: number, questionNo: number): Promise<MarkingTask[]> {
      const scope = await loadActor(db, userId);
      const context = await contexts.require(scope.orgId, homeworkId);
      const question = requireManual(context, questionNo);
      const rows = await db
        .select()
        .from(markingTasks)
        .where(scoredBy(homeworkId, questionNo, userId))
        .orderBy(desc(markingTasks.scoredAt), desc(markingTasks.id))
        .limit(HISTORY_LIMIT);
      const progress = await progressOf(homeworkId, questionNo, userId, reachOrNone(context, questionNo, scope));
      const others = await otherScoresOf(rows.filter((r) => r.round === ARBITRATION_ROUND).map((r) => r.answerId));
      const owns = await ownQuestionsOf(context, rows);
      return rows.map((row) =>
        view(
          row,
          question.score,
          progress,
          row.round === ARBITRATION_ROUND ? (others.get(row.answerId) ?? []) : undefined,
          owns.get(row.answerId),
        ),
      );
    },

    async arbitration(userId: number, homeworkId: number): Promise<MarkingTask[]> {
      const scope = await loadActor(db, userId);
      const context = await contexts.require(scope.orgId, homeworkId);
      if (!leads(scope, context)) throw new ApiError(403, MARKING_MESSAGES.notArbiter);
      const rows = await db
        .select()
        .from(markingTasks)
        .where(
          and(eq(markingTasks.homeworkId, homeworkId), eq(markingTasks.round, ARBITRATION_ROUND), isNull(markingTasks.score)),
        )
        .orderBy(asc(markingTasks.questionNo), asc(markingTasks.answerId));
      const others = await otherScoresOf(rows.map((r) => r.answerId));
      const owns = await ownQuestionsOf(context, rows);
      const perQuestion = new Map<number, { mine: number; left: number }>();
      for (const row of rows) {
        const entry = perQuestion.get(row.questionNo) ?? { mine: 0, left: 0 };
        entry.left += 1;
        perQuestion.set(row.questionNo, entry);
      }
      return rows.map((row) =>
        view(
          row,
          context.questions.get(row.questionNo)?.score ?? 0,
          perQuestion.get(row.questionNo)!,
          others.get(row.answerId) ?? [],
          owns.get(row.answerId),
        ),
      );
    },

    async answerImage(userId: number, answerId: number): Promise<Buffer> {
      const scope = await loadActor(db, userId);
      const [row] = await db
        .select({ regionPath: answers.regionPath })
        .from(answers)
        .where(and(eq(answers.id, answerId), eq(answers.orgId, scope.orgId)));
      if (!row?.regionPath) throw ApiError.notFound();
      try {
        return await storage.read(row.regionPath);
      } catch {
        throw ApiError.notFound();
      }
    },
  };
}
