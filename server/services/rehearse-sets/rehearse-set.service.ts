/**
 * Re-practice sets (错题重练): previewing, making and printing a class's common wrong questions (one
 * paper for everyone) or personalised sets (举一反三, a paper per student). Making a set makes a homework
 * that runs through the usual machinery: a personalised set's homework lists each student's own paper
 * and answer-sheet template in homework_student_papers, so recognition and marking read every student
 * against their own questions, and rehearse_set_items (position = question number on the student's
 * sheet, origin = the wrong question practised) tells the wrong-question book which scores are redos.
 *
 * Who may: the teacher's visible classes of the school year for the subject (permissions.visibleScope);
 * another school's class or subject is a 404, a class of the school the teacher does not see a 403.
 * The choice itself is similar-picker.ts (pure); this file loads its inputs and stores its answer.
 */
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AnswerSheetSpec,
  type AnswerSheetTemplate,
  answerSheetTemplateSchema,
} from '../../../src/shared/contract/answer-sheet';
import type { PaperDetail, Question } from '../../../src/shared/contract/papers';
import {
  DIFFICULTY_NAMES,
  QUESTION_TYPE_NAMES,
  REHEARSE_DEFAULT_SCORES,
  SET_MESSAGES,
  type SetCreated,
  type SetItem,
  type SetPreview,
  type SetReason,
  type SetStudent,
  setCreateSchema,
  setOptionsSchema,
  type PdfProgress,
  type SetPdfQuery,
} from '../../../src/shared/contract/rehearse-sets';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import { layoutAnswerSheet } from '../../../src/shared/lib/answer-sheet-layout';
import type { Db } from '../../db/client';
import {
  answers,
  answerSheetTemplates,
  classes,
  homework,
  homeworkAbsences,
  homeworkClasses,
  homeworkStudentPapers,
  knowledgePoints,
  paperQuestions,
  papers,
  paperSections,
  questionKnowledgePoints,
  questions,
  questionScores,
  rehearseQueue,
  rehearseSetItems,
  rehearseSets,
  students,
  subjects,
  wrongQuestions,
} from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { loadActor, scopeAllows, visibleScope } from '../org/permissions';
import { answerKeyLabels } from '../marking/objective-scoring';
import { answerSheetSpecOf } from '../papers/homework.service';
import { loadQuestions, visibleQuestionsOf } from '../papers/question-bank.service';
import { plainFormulaText } from './plain-formula';
import { renderSetPdf, type PrintStudent } from './set-pdf';
import {
  type ClassQuestionRate,
  type CoError,
  type CoErrorStats,
  coErrorKey,
  type PickedItem,
  type PickerQuestion,
  type PickerQuestionType,
  pickClassSet,
  pickStudentSet,
  swapQuestion,
  type WrongQuestion,
} from './similar-picker';

type Options = z.output<typeof setOptionsSchema>;
type CreateInput = z.output<typeof setCreateSchema>;

type RosterStudent = { id: number; name: string; code: string; classId: number; className: string };

type Gathered = {
  orgId: number;
  subject: { id: number; name: string };
  schoolYearId: number;
  classes: { id: number; name: string }[];
  roster: RosterStudent[];
  bank: Map<number, PickerQuestion>;
  pointNames: Map<number, string>;
  wrong: Map<number, WrongQuestion[]>;
  /** The full score of each wrong question when it went wrong, per student. */
  fullScores: Map<number, Map<number, number>>;
  seen: Map<number, Set<number>>;
  /** 得分率 per question, per class. */
  rates: Map<number, Map<number, number>>;
  /** The chosen classes together, for the class set. */
  classStats: ClassQuestionRate[];
  /** Questions queued for these classes' next set with 加入错题重练 (作业讲评), not yet in a set. */
  queued: Set<number>;
  /** The school's co-errors of each wrong choice answer with its similar candidates (kind personal). */
  coErrors: CoErrorStats;
};

type Computed = { students: (RosterStudent & { items: PickedItem[]; wrongCount: number })[]; classItems: PickedItem[] };

/** Rows of a raw query (node-postgres and PGlite answer in different shapes). */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)}%`);

/** The reason of a pick as a structured record and one Chinese sentence. */
function describeReason(item: PickedItem, kind: SetItem['kind'], pointNames: Map<number, string>, line?: number): SetReason {
  const r = item.reason;
  const points = r.knowledgePointIds.map((id) => pointNames.get(id) ?? '').filter(Boolean);
  const type = QUESTION_TYPE_NAMES[r.type] ?? r.type;
  const parts: string[] = [];
  if (kind === 'class') {
    parts.push(
      r.queued
        ? `作业讲评中加入错题重练（本班得分率 ${percent(r.pickRate)}）`
        : `本班得分率 ${percent(r.pickRate)}，低于重练线 ${line ?? 0}%`,
      `知识点：${points.join('、') || '未标注'}`,
      type,
    );
  } else if (kind === 'own') {
    parts.push(
      `原题（做错 ${r.timesWrong} 次）`,
      `知识点：${points.join('、') || '未标注'}`,
      type,
      DIFFICULTY_NAMES[r.difficulty] ?? '',
    );
    parts.push(`本班得分率 ${percent(r.originRate)}`);
    if (r.chosenLabels && r.chosenLabels.length > 0) parts.push(`上次选 ${r.chosenLabels.join('')}`);
    if (r.noSimilar) parts.push('题库中没有该生未做过的同类题');
  } else {
    parts.push(
      `同类题：知识点 ${points.join('、')}`,
      type,
      `难度${DIFFICULTY_NAMES[r.difficulty] ?? ''}（原题${DIFFICULTY_NAMES[r.originDifficulty] ?? ''}）`,
    );
    parts.push(
      `原题得分率 ${percent(r.originRate)}，本题得分率 ${r.pickRate === null ? '—（本班未做过）' : percent(r.pickRate)}`,
    );
    if (r.neverSeen) parts.push('从未做过');
    const chosen = r.chosenLabels?.join('') ?? '';
    if (r.distractor === 'coError' && r.coError)
      parts.push(
        `选 ${chosen} 的同学在此题也常错（错 ${percent(r.coError.chosenRate)}，其他同学错 ${percent(r.coError.otherRate)}）`,
      );
    if (r.distractor === 'noData') parts.push(`暂无选 ${chosen} 的同学做此题的记录，按同知识点、同题型挑选`);
  }
  return {
    knowledgePoints: points,
    type: r.type,
    difficulty: r.difficulty,
    originDifficulty: r.originDifficulty,
    originRate: r.originRate,
    pickRate: r.pickRate,
    neverSeen: r.neverSeen,
    timesWrong: r.timesWrong,
    chosenLabels: r.chosenLabels,
    distractor: r.distractor,
    noSimilar: r.noSimilar,
    text: parts.filter(Boolean).join(' · '),
  };
}

function toSetItem(
  item: PickedItem,
  kind: SetItem['kind'],
  pointNames: Map<number, string>,
  score: number,
  line?: number,
): SetItem {
  return {
    score,
    position: item.position,
    questionId: item.questionId,
    originQuestionId: item.originQuestionId,
    kind,
    reason: describeReason(item, kind, pointNames, line),
    alternatives: item.alternatives,
  };
}

/** A question as the preview shows it. */
function previewQuestion(q: Question) {
  return {
    id: q.id,
    type: q.type,
    difficulty: q.difficulty,
    stem: plainFormulaText(q.stem).slice(0, 300),
    options: q.options.map((o) => plainFormulaText(o).slice(0, 100)),
    knowledgePoints: q.knowledgePointNames,
  };
}

/** A paper held in memory (never read back from the database) for the sheet spec and the print. */
function paperOf(
  title: string,
  subjectName: string,
  schoolYearId: number,
  full: Map<number, Question>,
  items: { questionId: number; score: number }[],
): PaperDetail {
  return {
    id: 0,
    title,
    subjectId: 0,
    subjectName,
    schoolYearId,
    paperSize: 'A4',
    sections: [
      {
        title: '错题重练',
        questions: items.map((item, i) => ({
          questionId: item.questionId,
          score: item.score,
          no: i + 1,
          question: full.get(item.questionId)!,
        })),
      },
    ],
    totalScore: items.reduce((sum, item) => sum + item.score, 0),
    questionCount: items.length,
  };
}

export type RehearseSetService = ReturnType<typeof createRehearseSetService>;

/** How long a finished PDF's progress stays readable. */
const PROGRESS_KEPT_MS = 60_000;

/**
 * Joins each question score (qs, of homework h) to the paper question it answered: the student's own
 * paper's (spq) in a personalised set, else the homework paper's (pq); coalesce(spq.x, pq.x) reads it.
 */
const PAPER_QUESTION_OF_SCORE = sql`
  left join ${homeworkStudentPapers} hsp on hsp.homework_id = qs.homework_id and hsp.student_id = qs.student_id
  left join ${paperQuestions} spq on spq.paper_id = hsp.paper_id and spq.no = qs.question_no
  left join ${paperQuestions} pq on hsp.paper_id is null and pq.paper_id = h.paper_id and pq.no = qs.question_no`;

export function createRehearseSetService({ db }: { db: Db }) {
  /** The PDFs being made, by the key the client chose: who asked, and how far it is. */
  const pdfProgress = new Map<string, PdfProgress & { userId: number }>();
  /** Everything the choice needs, for the classes and subject asked, within the caller's scope. */
  async function gather(userId: number, options: Options): Promise<Gathered> {
    const actor = await loadActor(db, userId);
    const orgId = actor.orgId;
    const [year] = await db
      .select({ id: classes.id })
      .from(classes)
      .where(and(eq(classes.id, options.schoolYearId), eq(classes.orgId, orgId), eq(classes.type, CLASS_TYPE.schoolYear)));
    if (!year) throw ApiError.notFound();
    const [subject] = await db
      .select({ id: subjects.id, name: subjects.name })
      .from(subjects)
      .where(and(eq(subjects.id, options.subjectId), eq(subjects.orgId, orgId)));
    if (!subject) throw ApiError.notFound();
    const classIds = [...new Set(options.classIds)];
    const classRows = await db
      .select({ id: classes.id, name: classes.name, pid: classes.pid, sort: classes.sort })
      .from(classes)
      .where(and(inArray(classes.id, classIds), eq(classes.orgId, orgId), eq(classes.type, CLASS_TYPE.klass)))
      .orderBy(asc(classes.sort), asc(classes.id));
    if (classRows.length !== classIds.length) throw ApiError.notFound();
    if (classRows.some((c) => c.pid !== year.id)) throw ApiError.badRequest('班级不属于所选学年');
    const scope = await visibleScope(db, actor, year.id);
    if (classRows.some((c) => !scopeAllows(scope, c.id, subject.id))) throw ApiError.forbidden();

    const rosterRows = await db
      .select({ id: students.id, name: students.name, code: students.code, classId: students.classId })
      .from(students)
      .where(and(eq(students.orgId, orgId), inArray(students.classId, classIds)))
      .orderBy(asc(students.code));
    const order = new Map(classRows.map((c, i) => [c.id, i]));
    let roster: RosterStudent[] = rosterRows
      .map((s) => ({ ...s, className: classRows.find((c) => c.id === s.classId)!.name }))
      .sort((a, b) => order.get(a.classId)! - order.get(b.classId)! || a.code.localeCompare(b.code));
    if (options.studentIds) {
      const wanted = new Set(options.studentIds);
      if ([...wanted].some((id) => !roster.some((s) => s.id === id))) throw ApiError.badRequest(SET_MESSAGES.studentNotInClasses);
      roster = roster.filter((s) => wanted.has(s.id));
    }
    if (roster.length === 0) throw ApiError.badRequest(SET_MESSAGES.noStudents);
    const studentIds = roster.map((s) => s.id);

    // The subject's bank (shared and the school's own) with knowledge points.
    const visible = await visibleQuestionsOf(db, { userId, orgId }, subject);
    const bankRows = await db
      .select({ id: questions.id, type: questions.type, difficulty: questions.difficulty })
      .from(questions)
      .where(visible);
    const bank = new Map<number, PickerQuestion>(
      bankRows.map((q) => [
        q.id,
        { id: q.id, type: q.type as PickerQuestionType, difficulty: q.difficulty, knowledgePointIds: [] },
      ]),
    );
    const links = await db
      .select({
        questionId: questionKnowledgePoints.questionId,
        pointId: questionKnowledgePoints.knowledgePointId,
        name: knowledgePoints.name,
      })
      .from(questionKnowledgePoints)
      .innerJoin(questions, eq(questions.id, questionKnowledgePoints.questionId))
      .innerJoin(knowledgePoints, eq(knowledgePoints.id, questionKnowledgePoints.knowledgePointId))
      .where(visible)
      .orderBy(asc(questionKnowledgePoints.knowledgePointId));
    const pointNames = new Map<number, string>();
    for (const link of links) {
      (bank.get(link.questionId)?.knowledgePointIds as number[] | undefined)?.push(link.pointId);
      pointNames.set(link.pointId, link.name);
    }

    // The book: wrong questions still to redo, with the options chosen the last time.
    const wrongRows = await db
      .select({
        studentId: wrongQuestions.studentId,
        questionId: wrongQuestions.questionId,
        lastWrongOn: wrongQuestions.lastWrongOn,
        timesWrong: wrongQuestions.timesWrong,
        fullScore: wrongQuestions.fullScore,
        labels: answers.labels,
      })
      .from(wrongQuestions)
      .leftJoin(
        answers,
        and(
          eq(answers.homeworkId, wrongQuestions.lastHomeworkId),
          eq(answers.studentId, wrongQuestions.studentId),
          eq(answers.questionNo, wrongQuestions.lastQuestionNo),
        ),
      )
      .where(
        and(
          eq(wrongQuestions.orgId, orgId),
          inArray(wrongQuestions.studentId, studentIds),
          ne(wrongQuestions.mastery, 'mastered'),
        ),
      );
    const wrong = new Map<number, WrongQuestion[]>();
    const fullScores = new Map<number, Map<number, number>>();
    for (const row of wrongRows) {
      if (!bank.has(row.questionId)) continue;
      const mine = fullScores.get(row.studentId) ?? new Map<number, number>();
      mine.set(row.questionId, Number(row.fullScore));
      fullScores.set(row.studentId, mine);
      const list = wrong.get(row.studentId) ?? [];
      list.push({
        questionId: row.questionId,
        lastWrongAt: Date.parse(row.lastWrongOn),
        timesWrong: row.timesWrong,
        chosenLabels: row.labels && row.labels.length > 0 ? row.labels : null,
      });
      wrong.set(row.studentId, list);
    }

    // Seen: every question of every homework the student had (their class's, and papers of their own).
    const ids = sql.join(
      studentIds.map((id) => sql`${id}::int`),
      sql`, `,
    );
    const seenRows = rowsOf<{ sid: number; qid: number }>(
      await db.execute(sql`
      select st.id as sid, pq.question_id as qid
      from ${students} st
      join ${homeworkClasses} hc on hc.class_id = st.class_id
      join ${homework} h on h.id = hc.homework_id
      join ${paperQuestions} pq on pq.paper_id = h.paper_id
      where st.id in (${ids})
        and not exists (select 1 from ${homeworkStudentPapers} x where x.homework_id = h.id)
      union
      select hsp.student_id as sid, pq.question_id as qid
      from ${homeworkStudentPapers} hsp
      join ${paperQuestions} pq on pq.paper_id = hsp.paper_id
      where hsp.student_id in (${ids})`),
    );
    const seen = new Map<number, Set<number>>(studentIds.map((id) => [id, new Set<number>()]));
    for (const row of seenRows) seen.get(Number(row.sid))?.add(Number(row.qid));

    // 得分率 per class and question, from the scores of the class's students.
    const rateRows = rowsOf<{ cid: number; qid: number; s: number; f: number; n: number; last: string }>(
      await db.execute(sql`
      select st.class_id as cid, coalesce(spq.question_id, pq.question_id) as qid,
             sum(qs.score) as s, sum(coalesce(spq.score, pq.score)) as f, count(*) as n, max(h.start_date)::text as last
      from ${questionScores} qs
      join ${homework} h on h.id = qs.homework_id
      join ${students} st on st.id = qs.student_id
      ${PAPER_QUESTION_OF_SCORE}
      where qs.org_id = ${orgId} and qs.source <> 'missing'
        and st.class_id in (${sql.join(
          classIds.map((id) => sql`${id}::int`),
          sql`, `,
        )})
      group by st.class_id, coalesce(spq.question_id, pq.question_id)`),
    );
    const rates = new Map<number, Map<number, number>>(classIds.map((id) => [id, new Map()]));
    const together = new Map<number, { s: number; f: number; n: number; last: number }>();
    for (const row of rateRows) {
      const qid = Number(row.qid);
      if (!bank.has(qid)) continue;
      const [s, f, n] = [Number(row.s), Number(row.f), Number(row.n)];
      if (f > 0) rates.get(Number(row.cid))?.set(qid, s / f);
      const sum = together.get(qid) ?? { s: 0, f: 0, n: 0, last: 0 };
      together.set(qid, { s: sum.s + s, f: sum.f + f, n: sum.n + n, last: Math.max(sum.last, Date.parse(row.last)) });
    }
    const classStats = [...together].map(([questionId, t]) => ({
      questionId,
      rate: t.f > 0 ? t.s / t.f : 1,
      answered: t.n,
      lastAt: t.last,
    }));
    const queuedRows = await db
      .select({ questionId: rehearseQueue.questionId })
      .from(rehearseQueue)
      .where(
        and(
          eq(rehearseQueue.orgId, orgId),
          inArray(rehearseQueue.classId, classIds),
          eq(rehearseQueue.subjectId, subject.id),
          isNull(rehearseQueue.setId),
        ),
      );
    const queued = new Set(queuedRows.map((r) => r.questionId).filter((id) => bank.has(id)));
    const coErrors = options.kind === 'personal' ? await coErrorsOf(orgId, bank, wrong) : new Map<string, CoError>();

    return {
      orgId,
      subject,
      schoolYearId: year.id,
      classes: classRows.map((c) => ({ id: c.id, name: c.name })),
      roster,
      bank,
      pointNames,
      wrong,
      fullScores,
      seen,
      rates,
      classStats,
      queued,
      coErrors,
    };
  }

  /**
   * Co-errors for the distractor preference, in one aggregated query: for each wrong choice question of
   * the book (with the options chosen) and each bank question that could stand in for it (a shared
   * knowledge point, difficulty within one step), among the school's students who answered both (their
   * latest answer to each): how many chose the same options on the original, how many of them got the
   * candidate wrong (below its full score), and the same for the others.
   */
  async function coErrorsOf(
    orgId: number,
    bank: Map<number, PickerQuestion>,
    wrong: Map<number, WrongQuestion[]>,
  ): Promise<Map<string, CoError>> {
    const origins = new Set<number>();
    for (const list of wrong.values())
      for (const w of list) {
        const q = bank.get(w.questionId);
        if (q && (q.type === 'single' || q.type === 'multiple') && (w.chosenLabels?.length ?? 0) > 0) origins.add(q.id);
      }
    const byPoint = new Map<number, PickerQuestion[]>();
    for (const q of bank.values())
      for (const p of q.knowledgePointIds) {
        const list = byPoint.get(p) ?? [];
        list.push(q);
        byPoint.set(p, list);
      }
    const pairs: [number, number][] = [];
    for (const id of origins) {
      const origin = bank.get(id)!;
      const candidates = new Set<number>();
      for (const p of origin.knowledgePointIds)
        for (const q of byPoint.get(p) ?? [])
          if (q.id !== id && Math.abs(q.difficulty - origin.difficulty) <= 1) candidates.add(q.id);
      for (const c of candidates) pairs.push([id, c]);
    }
    const stats = new Map<string, CoError>();
    if (pairs.length === 0) return stats;
    const list = (values: number[]) => `{${values.join(',')}}`;
    const rows = rowsOf<{ q: number; c: number; labels: string | null; n: number; w: number }>(
      await db.execute(sql`
      with pair as (
        select * from unnest(${list(pairs.map((p) => p[0]))}::int[], ${list(pairs.map((p) => p[1]))}::int[]) as t(q, c)
      ),
      r as (
        select distinct on (qs.student_id, coalesce(spq.question_id, pq.question_id))
               qs.student_id as sid, coalesce(spq.question_id, pq.question_id) as qid, a.labels as labels,
               qs.score < coalesce(spq.score, pq.score) as wrong
        from ${questionScores} qs
        join ${answers} a on a.id = qs.answer_id
        join ${homework} h on h.id = qs.homework_id
        ${PAPER_QUESTION_OF_SCORE}
        where qs.org_id = ${orgId} and qs.source <> 'missing'
          and coalesce(spq.question_id, pq.question_id) in (select q from pair union select c from pair)
        order by qs.student_id, coalesce(spq.question_id, pq.question_id), h.start_date desc, h.id desc
      )
      select p.q as q, p.c as c, o.labels::text as labels, count(*)::int as n, (count(*) filter (where x.wrong))::int as w
      from pair p
      join r o on o.qid = p.q
      join r x on x.sid = o.sid and x.qid = p.c
      group by p.q, p.c, o.labels::text`),
    );
    // Per (original, candidate): the answers grouped by the options chosen on the original.
    const groups = new Map<string, { labels: string[]; n: number; w: number }[]>();
    for (const row of rows) {
      const labels = row.labels ? (JSON.parse(row.labels) as string[]) : [];
      const key = `${Number(row.q)}|${Number(row.c)}`;
      groups.set(key, [...(groups.get(key) ?? []), { labels, n: Number(row.n), w: Number(row.w) }]);
    }
    for (const [key, list] of groups) {
      const [q, c] = key.split('|').map(Number) as [number, number];
      const total = list.reduce((sum, g) => ({ n: sum.n + g.n, w: sum.w + g.w }), { n: 0, w: 0 });
      for (const g of list) {
        if (g.labels.length === 0) continue;
        const k = coErrorKey(q, g.labels, c);
        const prev = stats.get(k) ?? { chosenWrong: 0, chosenAnswered: 0, otherWrong: 0, otherAnswered: 0 };
        // Two label orders of the same choice fold into one key.
        stats.set(k, {
          chosenWrong: prev.chosenWrong + g.w,
          chosenAnswered: prev.chosenAnswered + g.n,
          otherWrong: total.w - (prev.chosenWrong + g.w),
          otherAnswered: total.n - (prev.chosenAnswered + g.n),
        });
      }
    }
    return stats;
  }

  /**
   * The points of each question of the sets (see REHEARSE_DEFAULT_SCORES): a student's wrong question its
   * full score when it went wrong, another question its latest score in a paper of the school, else the
   * points of the question it practises, else the usual points of its type.
   */
  async function scoresOf(
    g: Gathered,
    sets: { studentId: number | null; items: PickedItem[] }[],
  ): Promise<(item: PickedItem, studentId: number | null) => number> {
    const ids = [...new Set(sets.flatMap((s) => s.items.flatMap((i) => [i.questionId, i.originQuestionId])))];
    const latest = new Map<number, number>();
    if (ids.length > 0) {
      const rows = rowsOf<{ qid: number; score: number }>(
        await db.execute(sql`
        select distinct on (pq.question_id) pq.question_id as qid, pq.score as score
        from ${paperQuestions} pq
        join ${papers} p on p.id = pq.paper_id
        where p.org_id = ${g.orgId} and pq.question_id in (${sql.join(
          ids.map((id) => sql`${id}::int`),
          sql`, `,
        )})
        order by pq.question_id, p.id desc`),
      );
      for (const row of rows) latest.set(Number(row.qid), Number(row.score));
    }
    return (item, studentId) => {
      const own = studentId === null ? undefined : g.fullScores.get(studentId);
      if (item.questionId === item.originQuestionId) {
        const score = own?.get(item.questionId) ?? latest.get(item.questionId);
        if (score !== undefined && score > 0) return score;
      } else {
        const score = latest.get(item.questionId);
        if (score !== undefined && score > 0) return score;
        const origin = own?.get(item.originQuestionId) ?? latest.get(item.originQuestionId);
        if (origin !== undefined && origin > 0 && g.bank.get(item.originQuestionId)?.type === item.reason.type) return origin;
      }
      return REHEARSE_DEFAULT_SCORES[item.reason.type] ?? 3;
    };
  }

  /** The sets for the options, with the teacher's swaps applied (a swap breaking a rule is a 400). */
  function compute(g: Gathered, options: Options): Computed {
    const line = options.linePercent / 100;
    if (options.kind === 'class') {
      const picked = pickClassSet(g.classStats, line, g.queued).map((s, i): PickedItem => ({
        position: i + 1,
        questionId: s.questionId,
        originQuestionId: s.questionId,
        kind: 'own',
        reason: {
          knowledgePointIds: [...(g.bank.get(s.questionId)?.knowledgePointIds ?? [])],
          type: g.bank.get(s.questionId)!.type,
          difficulty: g.bank.get(s.questionId)!.difficulty,
          originDifficulty: g.bank.get(s.questionId)!.difficulty,
          originRate: s.rate,
          pickRate: s.rate,
          neverSeen: false,
          timesWrong: 0,
          chosenLabels: null,
          distractor: null,
          noSimilar: false,
          queued: g.queued.has(s.questionId),
        },
        alternatives: [],
      }));
      return {
        classItems: picked,
        students: g.roster.map((s) => ({ ...s, items: [], wrongCount: g.wrong.get(s.id)?.length ?? 0 })),
      };
    }
    const result = g.roster.map((s) => {
      const input = { studentId: s.id, wrong: g.wrong.get(s.id) ?? [], seen: g.seen.get(s.id) ?? new Set<number>() };
      const rates = g.rates.get(s.classId) ?? new Map<number, number>();
      let items = pickStudentSet(g.bank, input, { ...options, seed: options.seed }, rates, g.coErrors);
      for (const swap of options.swaps.filter((w) => w.studentId === s.id)) {
        const swapped = swapQuestion(g.bank, items, input, swap.position, swap.questionId, rates, g.coErrors);
        if (typeof swapped === 'string') throw ApiError.badRequest(`${s.name}：${swapped}`);
        items = swapped;
      }
      return { ...s, items, wrongCount: input.wrong.length };
    });
    if (options.swaps.some((w) => !g.roster.some((s) => s.id === w.studentId))) {
      throw ApiError.badRequest(SET_MESSAGES.studentNotInClasses);
    }
    return { students: result, classItems: [] };
  }

  async function preview(userId: number, raw: z.input<typeof setOptionsSchema>): Promise<SetPreview> {
    const options = setOptionsSchema.parse(raw);
    const g = await gather(userId, options);
    const computed = compute(g, options);
    const line = options.linePercent;
    const scoreOf = await scoresOf(g, [
      ...computed.students.map((s) => ({ studentId: s.id, items: s.items })),
      { studentId: null, items: computed.classItems },
    ]);
    const studentsOut: SetStudent[] = computed.students.map((s) => ({
      studentId: s.id,
      name: s.name,
      code: s.code,
      classId: s.classId,
      className: s.className,
      wrongCount: s.wrongCount,
      items: s.items.map((item) => toSetItem(item, item.kind, g.pointNames, scoreOf(item, s.id))),
    }));
    const classItems = computed.classItems.map((item) => toSetItem(item, 'class', g.pointNames, scoreOf(item, null), line));
    const ids = [
      ...new Set(
        [...studentsOut, { items: classItems }].flatMap((s) => s.items.flatMap((i) => [i.questionId, ...i.alternatives])),
      ),
    ];
    const full = await loadQuestions(db, ids);
    return { kind: options.kind, students: studentsOut, classItems, questions: full.map(previewQuestion) };
  }

  async function create(userId: number, raw: z.input<typeof setCreateSchema>): Promise<SetCreated> {
    const input: CreateInput = setCreateSchema.parse(raw);
    if (input.dueDate < input.startDate) throw ApiError.badRequest(SET_MESSAGES.dates);
    const g = await gather(userId, input);
    const computed = compute(g, input);
    const perStudent = input.kind === 'personal';
    const sets = perStudent
      ? computed.students.filter((s) => s.items.length > 0)
      : computed.classItems.length > 0
        ? [{ items: computed.classItems }]
        : [];
    if (sets.length === 0) throw ApiError.badRequest(SET_MESSAGES.noQuestions);
    const full = new Map(
      (await loadQuestions(db, [...new Set(sets.flatMap((s) => s.items.map((i) => i.questionId)))])).map((q) => [q.id, q]),
    );
    const classNames = new Map(g.classes.map((c) => [c.id, c.name]));
    const setOwners = perStudent ? computed.students.filter((s) => s.items.length > 0).map((s) => s.id) : [null];
    const scoreOf = await scoresOf(
      g,
      sets.map((set, i) => ({ studentId: setOwners[i] ?? null, items: set.items })),
    );
    const scored = sets.map((set, i) =>
      set.items.map((item) => ({ questionId: item.questionId, score: scoreOf(item, setOwners[i] ?? null) })),
    );

    const made = await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const paperRows = await tx
        .insert(papers)
        .values(
          (perStudent ? computed.students.filter((s) => s.items.length > 0) : [null]).map((s) => ({
            orgId: g.orgId,
            subjectId: g.subject.id,
            schoolYearId: g.schoolYearId,
            title: s ? `${input.title}（${s.name}）`.slice(0, 100) : input.title,
            paperSize: 'A4',
            createdBy: userId,
          })),
        )
        .returning({ id: papers.id });
      const sectionRows = await tx
        .insert(paperSections)
        .values(paperRows.map((p) => ({ paperId: p.id, sort: 0, title: '一、错题重练' })))
        .returning({ id: paperSections.id, paperId: paperSections.paperId });
      const questionValues = sets.flatMap((set, i) =>
        set.items.map((item, k) => ({
          paperId: paperRows[i]!.id,
          sectionId: sectionRows[i]!.id,
          questionId: item.questionId,
          no: item.position,
          score: scored[i]![k]!.score,
        })),
      );
      for (let offset = 0; offset < questionValues.length; offset += 1000) {
        await tx.insert(paperQuestions).values(questionValues.slice(offset, offset + 1000));
      }
      // The homework's own paper: the longest set's (the homework-wide list numbers every question).
      let longest = 0;
      sets.forEach((set, i) => {
        if (set.items.length > sets[longest]!.items.length) longest = i;
      });
      const [hw] = await tx
        .insert(homework)
        .values({
          orgId: g.orgId,
          paperId: paperRows[longest]!.id,
          title: input.title,
          status: 'assigned',
          startDate: input.startDate,
          dueDate: input.dueDate,
          createdBy: userId,
        })
        .returning();
      await tx.insert(homeworkClasses).values(g.classes.map((c) => ({ homeworkId: hw!.id, classId: c.id })));
      const [set] = await tx
        .insert(rehearseSets)
        .values({
          orgId: g.orgId,
          ownerId: userId,
          subjectId: g.subject.id,
          schoolYearId: g.schoolYearId,
          classIds: g.classes.map((c) => c.id),
          kind: input.kind,
          homeworkId: hw!.id,
          options: {
            count: input.count,
            order: input.order,
            similarPerQuestion: input.similarPerQuestion,
            linePercent: input.linePercent,
            seed: input.seed,
            swaps: input.swaps,
            studentIds: input.studentIds ?? null,
          },
        })
        .returning({ id: rehearseSets.id });
      const itemValues = (perStudent ? computed.students.filter((s) => s.items.length > 0) : [null]).flatMap((s, i) =>
        sets[i]!.items.map((item, k) => ({
          setId: set!.id,
          homeworkId: hw!.id,
          studentId: s ? s.id : null,
          position: item.position,
          questionId: item.questionId,
          score: scored[i]![k]!.score,
          originQuestionId: item.originQuestionId,
          reason: describeReason(item, perStudent ? item.kind : 'class', g.pointNames, input.linePercent) as unknown as Record<
            string,
            unknown
          >,
        })),
      );
      for (let offset = 0; offset < itemValues.length; offset += 1000) {
        await tx.insert(rehearseSetItems).values(itemValues.slice(offset, offset + 1000));
      }
      if (!perStudent) {
        // Laid out and stored now, as the homework service would on the first print.
        const paper = paperOf(input.title, g.subject.name, g.schoolYearId, full, scored[0]!);
        const template = layoutAnswerSheet(answerSheetSpecOf(hw!, paper));
        await tx.insert(answerSheetTemplates).values({ homeworkId: hw!.id, version: template.version, template });
      }
      if (perStudent) {
        const withSets = computed.students.filter((s) => s.items.length > 0);
        const sheetValues = withSets.map((s, i) => {
          const paper = paperOf(input.title, g.subject.name, g.schoolYearId, full, scored[i]!);
          const template = layoutAnswerSheet(answerSheetSpecOf(hw!, paper, classNames.get(s.classId)));
          return { homeworkId: hw!.id, studentId: s.id, orgId: g.orgId, paperId: paperRows[i]!.id, template };
        });
        for (let offset = 0; offset < sheetValues.length; offset += 200) {
          await tx.insert(homeworkStudentPapers).values(sheetValues.slice(offset, offset + 200));
        }
        // Nothing to redo: not expected on a sheet (缺考 for this homework), so the homework can finish.
        const without = computed.students.filter((s) => s.items.length === 0);
        if (without.length > 0) {
          await tx
            .insert(homeworkAbsences)
            .values(without.map((s) => ({ homeworkId: hw!.id, studentId: s.id, orgId: g.orgId, markedBy: userId })));
        }
      }
      // Questions queued with 加入错题重练 for these classes are taken by the class set.
      if (!perStudent) {
        await tx
          .update(rehearseQueue)
          .set({ setId: set!.id })
          .where(
            and(
              eq(rehearseQueue.orgId, g.orgId),
              inArray(
                rehearseQueue.classId,
                g.classes.map((c) => c.id),
              ),
              inArray(
                rehearseQueue.questionId,
                sets[0]!.items.map((i) => i.questionId),
              ),
              sql`${rehearseQueue.setId} is null`,
            ),
          );
      }
      const used = [...new Set(questionValues.map((q) => q.questionId))];
      await tx
        .update(questions)
        .set({
          usageCount: sql`(select count(distinct ${paperQuestions.paperId}) from ${paperQuestions} where ${paperQuestions.questionId} = ${questions.id})`,
        })
        .where(inArray(questions.id, used));
      return { setId: set!.id, homeworkId: hw!.id, questions: questionValues.length };
    });
    const counted = perStudent ? computed.students.filter((s) => s.items.length > 0) : computed.students;
    return {
      ...made,
      kind: input.kind,
      classes: g.classes.map((c) => ({ id: c.id, name: c.name, students: counted.filter((s) => s.classId === c.id).length })),
      students: counted.length,
    };
  }

  /** A set of the caller's school (404 otherwise) with its homework. */
  async function requireSet(userId: number, setId: number) {
    const actor = await loadActor(db, userId);
    const [row] = await db
      .select({
        id: rehearseSets.id,
        orgId: rehearseSets.orgId,
        kind: rehearseSets.kind,
        classIds: rehearseSets.classIds,
        subjectId: rehearseSets.subjectId,
        schoolYearId: rehearseSets.schoolYearId,
        homeworkId: rehearseSets.homeworkId,
      })
      .from(rehearseSets)
      .where(and(eq(rehearseSets.id, setId), eq(rehearseSets.orgId, actor.orgId)));
    if (!row || row.homeworkId === null) throw ApiError.notFound();
    const scope = await visibleScope(db, actor, row.schoolYearId);
    if (!row.classIds.some((id) => scopeAllows(scope, id, row.subjectId))) throw ApiError.forbidden();
    const [hw] = await db.select().from(homework).where(eq(homework.id, row.homeworkId));
    if (!hw) throw ApiError.notFound();
    return { set: row, homework: hw };
  }

  /**
   * The print of a set: all its students (a cover first), one class (a cover first) or one student, in
   * class and 学号 order; each student's paper and their own answer sheet. With `with` (a personal set and
   * the class set of the same subject and classes, either way round): one job, a cover listing the common
   * set and each student's own set, the common set's papers and sheets, then each student's.
   */
  async function pdf(userId: number, setId: number, query: SetPdfQuery): Promise<{ pdf: Uint8Array; fileName: string }> {
    if (query.with !== undefined) {
      // One job for both sets of the same data: the class's common set and the personal sets (a class or
      // everyone, not one student).
      const whole = { ...query, studentId: undefined };
      const main = await printOf(userId, setId, whole);
      const other = await printOf(userId, query.with, whole);
      const personal = main.set.kind === 'personal' ? main : other;
      const common = main.set.kind === 'class' ? main : other;
      const sameClasses = (a: number[], b: number[]) => a.length === b.length && a.every((id) => b.includes(id));
      if (
        personal === common ||
        personal.set.kind !== 'personal' ||
        common.set.kind !== 'class' ||
        personal.set.subjectId !== common.set.subjectId ||
        !sameClasses(personal.set.classIds, common.set.classIds)
      )
        throw ApiError.badRequest(SET_MESSAGES.combine);
      return render(personal, whole, common);
    }
    return render(await printOf(userId, setId, query), query);
  }

  async function render(
    main: Awaited<ReturnType<typeof printOf>>,
    query: SetPdfQuery,
    common?: Awaited<ReturnType<typeof printOf>>,
  ): Promise<{ pdf: Uint8Array; fileName: string }> {
    const { userId, hw, subjectName, printed, classNames } = main;
    const all = printed.length + (common?.printed.length ?? 0);
    const key = query.progress;
    const track = (progress: PdfProgress) => {
      if (key !== undefined) pdfProgress.set(key, { ...progress, userId });
    };
    track({ done: 0, total: all, stage: 'students' });
    let bytes: Uint8Array;
    try {
      bytes = await renderSetPdf(
        {
          title: hw.title,
          subjectName,
          cover: query.studentId === undefined,
          students: printed,
          ...(common
            ? {
                common: {
                  title: common.hw.title,
                  summary: `知识点：${common.points.slice(0, 6).join('、') || '未标注'}`,
                  students: common.printed,
                },
              }
            : {}),
        },
        key === undefined ? undefined : (done) => track({ done, total: all, stage: 'students' }),
        () => track({ done: all, total: all, stage: 'saving' }),
      );
      track({ done: all, total: all, stage: 'done' });
    } finally {
      if (key !== undefined) setTimeout(() => pdfProgress.delete(key), PROGRESS_KEPT_MS).unref();
    }
    const who =
      query.studentId !== undefined
        ? `-${printed[0]!.className}-${printed[0]!.code}${printed[0]!.name}`
        : query.classId !== undefined
          ? `-${classNames.get(query.classId)}`
          : '';
    return { pdf: bytes, fileName: `${hw.title}${common ? '（含共性错题）' : ''}${who}.pdf` };
  }

  /** The students of a set's print, in class and 学号 order, each with their paper and sheet. */
  async function printOf(userId: number, setId: number, query: SetPdfQuery) {
    const { set, homework: hw } = await requireSet(userId, setId);
    if (query.classId !== undefined && !set.classIds.includes(query.classId))
      throw ApiError.badRequest('该套题没有布置给这个班级');
    const classRows = await db
      .select({ id: classes.id, name: classes.name, sort: classes.sort })
      .from(classes)
      .where(inArray(classes.id, set.classIds))
      .orderBy(asc(classes.sort), asc(classes.id));
    const classIds = query.classId !== undefined ? [query.classId] : classRows.map((c) => c.id);
    const [subject] = await db.select({ name: subjects.name }).from(subjects).where(eq(subjects.id, set.subjectId));
    const rosterRows = await db
      .select({ id: students.id, name: students.name, code: students.code, classId: students.classId })
      .from(students)
      .where(and(eq(students.orgId, set.orgId), inArray(students.classId, classIds)))
      .orderBy(asc(students.code));
    const order = new Map(classRows.map((c, i) => [c.id, i]));
    let roster = rosterRows.sort((a, b) => order.get(a.classId)! - order.get(b.classId)! || a.code.localeCompare(b.code));
    if (query.studentId !== undefined) {
      roster = roster.filter((s) => s.id === query.studentId);
      if (roster.length === 0) throw ApiError.badRequest(SET_MESSAGES.studentNotInClasses);
    }
    const items = await db
      .select()
      .from(rehearseSetItems)
      .where(eq(rehearseSetItems.setId, set.id))
      .orderBy(asc(rehearseSetItems.position));
    const own = await db
      .select({ studentId: homeworkStudentPapers.studentId, template: homeworkStudentPapers.template })
      .from(homeworkStudentPapers)
      .where(eq(homeworkStudentPapers.homeworkId, hw.id));
    const templates = new Map(own.map((row) => [row.studentId, answerSheetTemplateSchema.parse(row.template)]));
    const full = new Map((await loadQuestions(db, [...new Set(items.map((i) => i.questionId))])).map((q) => [q.id, q]));
    const subjectName = subject?.name ?? '';
    const classNames = new Map(classRows.map((c) => [c.id, c.name]));
    const shared = items.filter((i) => i.studentId === null);
    let sharedTemplate: AnswerSheetTemplate | undefined;
    const printed: PrintStudent[] = [];
    for (const student of roster) {
      const mine = set.kind === 'personal' ? items.filter((i) => i.studentId === student.id) : shared;
      if (mine.length === 0) continue;
      const paper = paperOf(
        hw.title,
        subjectName,
        set.schoolYearId,
        full,
        mine.map((i) => ({
          questionId: i.questionId,
          score: i.score ?? REHEARSE_DEFAULT_SCORES[full.get(i.questionId)!.type] ?? 3,
        })),
      );
      const spec: AnswerSheetSpec = answerSheetSpecOf(hw, paper, classNames.get(student.classId));
      let template = templates.get(student.id);
      if (!template) {
        sharedTemplate ??= layoutAnswerSheet(answerSheetSpecOf(hw, paper));
        template = sharedTemplate;
      }
      const ownCount = mine.filter((i) => i.originQuestionId === i.questionId).length;
      printed.push({
        name: student.name,
        code: student.code,
        className: classNames.get(student.classId) ?? '',
        summary:
          set.kind === 'personal'
            ? `原题 ${ownCount} 道，同类题 ${mine.length - ownCount} 道（知识点：${[
                ...new Set(mine.flatMap((i) => full.get(i.questionId)?.knowledgePointNames ?? [])),
              ]
                .slice(0, 6)
                .join('、')}）`
            : '本班共性错题',
        questions: mine.map((i) => {
          const q = full.get(i.questionId)!;
          return {
            no: i.position,
            score: i.score ?? REHEARSE_DEFAULT_SCORES[q.type] ?? 3,
            type: q.type,
            stem: plainFormulaText(q.stem),
            options: q.options.map(plainFormulaText),
          };
        }),
        spec,
        template,
      });
    }
    if (printed.length === 0) throw ApiError.badRequest(SET_MESSAGES.noQuestions);
    // The class set: the homework's stored template is the one to print, like any homework.
    if (set.kind === 'class') {
      const [stored] = await db
        .select({ template: answerSheetTemplates.template })
        .from(answerSheetTemplates)
        .where(eq(answerSheetTemplates.homeworkId, hw.id))
        .orderBy(desc(answerSheetTemplates.version))
        .limit(1);
      if (stored) for (const p of printed) p.template = answerSheetTemplateSchema.parse(stored.template);
    }
    const points = [...new Set(items.flatMap((i) => full.get(i.questionId)?.knowledgePointNames ?? []))];
    return { userId, set, hw, subjectName, classNames, printed, points };
  }

  /** Each student's own answer-sheet spec of a homework (none for an ordinary homework): the simulated scanner draws these. */
  async function studentSheetSpecs(
    userId: number,
    homeworkId: number,
    withKeys = false,
  ): Promise<{ studentCode: string; spec: AnswerSheetSpec; keys?: Record<string, string[]> }[]> {
    const actor = await loadActor(db, userId);
    const [hw] = await db
      .select()
      .from(homework)
      .where(and(eq(homework.id, homeworkId), eq(homework.orgId, actor.orgId)));
    if (!hw) throw ApiError.notFound();
    const rows = await db
      .select({ code: students.code, paperId: homeworkStudentPapers.paperId, classId: students.classId })
      .from(homeworkStudentPapers)
      .innerJoin(students, eq(students.id, homeworkStudentPapers.studentId))
      .where(eq(homeworkStudentPapers.homeworkId, hw.id));
    if (rows.length === 0) return [];
    const [subjectRow] = await db
      .select({ name: subjects.name, schoolYearId: papers.schoolYearId })
      .from(papers)
      .innerJoin(subjects, eq(subjects.id, papers.subjectId))
      .where(eq(papers.id, hw.paperId));
    const questionRows = await db
      .select({
        paperId: paperQuestions.paperId,
        questionId: paperQuestions.questionId,
        no: paperQuestions.no,
        score: paperQuestions.score,
      })
      .from(paperQuestions)
      .where(
        inArray(
          paperQuestions.paperId,
          rows.map((r) => r.paperId),
        ),
      )
      .orderBy(asc(paperQuestions.no));
    const full = new Map((await loadQuestions(db, [...new Set(questionRows.map((q) => q.questionId))])).map((q) => [q.id, q]));
    const classRows = await db
      .select({ id: classes.id, name: classes.name })
      .from(classes)
      .where(
        inArray(
          classes.id,
          rows.map((r) => r.classId),
        ),
      );
    return rows.map((r) => {
      const own = questionRows
        .filter((q) => q.paperId === r.paperId)
        .map((q) => ({ questionId: q.questionId, score: Number(q.score) }));
      const paper = paperOf(hw.title, subjectRow?.name ?? '', subjectRow?.schoolYearId ?? 0, full, own);
      const spec = answerSheetSpecOf(hw, paper, classRows.find((c) => c.id === r.classId)?.name);
      if (!withKeys) return { studentCode: r.code, spec };
      const keys: Record<string, string[]> = {};
      own.forEach((item, i) => {
        const q = full.get(item.questionId)!;
        if (q.type === 'single' || q.type === 'multiple' || q.type === 'judge')
          keys[String(i + 1)] = answerKeyLabels(q.type, q.answer);
      });
      return { studentCode: r.code, spec, keys };
    });
  }

  /** How far the caller's PDF with this key is; 404 when unknown (not started yet, long done, or another user's). */
  function progress(userId: number, key: string): PdfProgress {
    const entry = pdfProgress.get(key);
    if (!entry || entry.userId !== userId) throw ApiError.notFound();
    return { done: entry.done, total: entry.total, stage: entry.stage };
  }

  return { preview, create, pdf, progress, studentSheetSpecs };
}
