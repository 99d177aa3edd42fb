/**
 * A semester of marked homework for the demo school, so every analysis page is full on first start:
 * ten homework per subject (数学, 语文, 英语) over the last twelve weeks for the first school year's four
 * classes, built from the question bank, each answered and scored question by question.
 *
 * The model: a two-parameter logistic model, P(right) = 1 / (1 + exp(-a (theta - b))), with the
 * student's ability theta (normal, plus a class effect, plus a weekly drift for a few improving or
 * slipping students), the question's difficulty b (from the bank's 1..5) and discrimination a. Choice
 * questions choose an option (wrong answers prefer a per-question favourite distractor; one question has a
 * key the strong students contradict, so 答案可能有误 shows); multiple choice may be incomplete (partial
 * credit); manual questions get part scores, marked by the subject's teacher (marking_tasks) at a time
 * around the due date. About 4 % of students miss each homework (no answers at all, never a 0).
 * The demo homework under way (seed-papers.ts) are answered too, for the share of their students the demo
 * says is scanned, and take the status the marking rule gives them.
 *
 * Rows go in with one INSERT ... SELECT FROM jsonb_to_recordset per table, so PGlite seeds it in a
 * few seconds. Idempotent: does nothing when the school already has question scores.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { DEFAULT_PARTIAL_CREDIT } from '../../src/shared/contract/marking';
import { CLASS_TYPE } from '../../src/shared/contract/system';
import { DEFAULT_ERROR_CAUSES } from '../services/rehearse/wrong-book-rules';
import { recomputeWrongBook } from '../services/rehearse/wrong-book.service';
import { syncHomeworkStatus } from '../services/marking/marking-progress';
import type { Db } from './client';
import { classes, subjects, users } from './schema';
import { DEMO_HOMEWORK_ANSWERED } from './seed-papers';
import { homeworkAbsences, questionScores } from './schema-marking';
import { homework, homeworkClasses, paperQuestions, papers, paperSections, questions, students } from './schema-papers';

export const SEMESTER_WEEKS = 12;
export const SEMESTER_HOMEWORK_PER_SUBJECT = 10;

type QType = 'single' | 'multiple' | 'judge' | 'blank' | 'subjective';

const PLANS: Record<string, [QType, number][]> = {
  数学: [
    ['single', 6],
    ['multiple', 2],
    ['judge', 2],
    ['blank', 4],
    ['subjective', 2],
  ],
  语文: [
    ['single', 5],
    ['multiple', 1],
    ['judge', 2],
    ['blank', 4],
    ['subjective', 2],
  ],
  英语: [
    ['single', 8],
    ['multiple', 2],
    ['blank', 5],
    ['subjective', 1],
  ],
};
const TYPE_NAMES: Record<QType, string> = {
  single: '单选题',
  multiple: '多选题',
  judge: '判断题',
  blank: '填空题',
  subjective: '解答题',
};
const SECTION_NAMES = ['一', '二', '三', '四', '五'];
const TITLES: Record<string, string[]> = {
  数学: [
    '有理数的加减',
    '有理数的乘除',
    '乘方与科学记数法',
    '整式的概念',
    '整式的加减',
    '一元一次方程的解法',
    '方程应用题',
    '几何图形',
    '线段与角',
    '期中复习卷',
  ],
  语文: [
    '字音字形练习',
    '古诗词鉴赏',
    '文言文阅读（一）',
    '现代文阅读（一）',
    '病句辨析',
    '名著阅读',
    '文言文阅读（二）',
    '现代文阅读（二）',
    '综合性学习',
    '期中复习卷',
  ],
  英语: [
    'Starter 单元检测',
    'Unit 1 词汇',
    'Unit 1 语法',
    'Unit 2 阅读',
    'Unit 2 写作',
    'Unit 3 听说',
    'Unit 3 语法',
    'Unit 4 阅读',
    'Unit 4 综合',
    '期中复习卷',
  ],
};
/** Class effects on ability, by class order. */
const CLASS_EFFECTS = [0.3, 0.05, -0.1, -0.35];
const ABSENT_RATE = 0.04;

/** mulberry32, so the demo semester is the same on every fresh start. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(random: () => number) {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));
const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** Bubble labels of a key as recognition stores them (judge 对/错 -> T/F). */
function keyLabels(type: QType, answer: readonly string[]): string[] {
  if (type === 'judge') return [answer[0] === '对' ? 'T' : 'F'];
  return [...answer];
}

type SemesterStudent = { id: number; classIndex: number; theta: number; drift: number };

/** Students of the school year with their latent ability; a few improve or slip over the weeks. */
function modelStudents(rows: { id: number; classId: number }[], classIds: number[], random: () => number): SemesterStudent[] {
  return rows.map((row, i) => {
    const classIndex = classIds.indexOf(row.classId);
    // Every 17th student improves, every 23rd slips (per week, in ability units).
    const drift = i % 17 === 5 ? 0.12 : i % 23 === 7 ? -0.1 : 0;
    return { id: row.id, classIndex, theta: normal(random) + (CLASS_EFFECTS[classIndex] ?? 0), drift };
  });
}

type AnswerRow = {
  hw: number;
  sid: number;
  qno: number;
  labels: string[] | null;
  score: number;
  manual: boolean;
  /** Minutes after the epoch. */
  at: number;
};

type Params = Map<number, { a: number; b: number; favourite: number }>;
type PaperRow = { no: number; score: number; q: { id: number; type: QType; answer: string[] } };

/**
 * One student's answers to a paper under the model: choice questions choose options (wrong answers favour
 * the question's distractor; the suspect question's key is contradicted by strong students), manual
 * questions get whole-mark part scores, all marked around the due date.
 */
function answerPaper(
  paper: { hw: number; student: number; theta: number; due: Date; rows: PaperRow[]; params: Params; suspectQuestion: number },
  random: () => number,
): AnswerRow[] {
  const { theta } = paper;
  const out: AnswerRow[] = [];
  for (const row of paper.rows) {
    const { a, b, favourite } = paper.params.get(row.q.id)!;
    const p = logistic(a * (theta - b));
    const right = random() < p;
    const at = Math.round(paper.due.getTime() / 60_000 + (random() * 60 - 20) * 60);
    const base = { hw: paper.hw, sid: paper.student, qno: row.no, at };
    if (row.q.type === 'single' || row.q.type === 'judge' || row.q.type === 'multiple') {
      const key = keyLabels(row.q.type, row.q.answer);
      const offered = row.q.type === 'judge' ? ['T', 'F'] : ['A', 'B', 'C', 'D'];
      const distractors = offered.filter((l) => !key.includes(l));
      let labels: string[];
      if (row.no === paper.suspectQuestion && theta > 0.3 && random() < 0.7)
        labels = [distractors[favourite % distractors.length]!];
      else if (right) labels = key;
      else if (random() < 0.04 + Math.max(0, -theta) * 0.05) labels = [];
      else if (row.q.type === 'multiple' && key.length > 1 && random() < 0.5) labels = key.slice(0, key.length - 1);
      else if (row.q.type === 'multiple') labels = [...new Set([key[0]!, distractors[favourite % distractors.length]!])].sort();
      else {
        // Wrong answers favour one distractor.
        const pick = random() < 0.55 ? favourite % distractors.length : Math.floor(random() * distractors.length);
        labels = [distractors[pick]!];
      }
      const exact = labels.length === key.length && labels.every((l) => key.includes(l));
      const partial = !exact && labels.length > 0 && labels.every((l) => key.includes(l));
      const score = exact ? row.score : partial && row.q.type === 'multiple' ? row.score * DEFAULT_PARTIAL_CREDIT : 0;
      out.push({ ...base, labels, score, manual: false });
    } else if (row.q.type === 'blank') {
      out.push({ ...base, labels: null, score: right ? row.score : 0, manual: true });
    } else {
      // Part scores: the expected share p, with marker noise, in whole marks.
      const share = Math.min(1, Math.max(0, p + normal(random) * 0.15));
      out.push({ ...base, labels: null, score: Math.round(share * row.score), manual: true });
    }
  }
  return out;
}

type Bank = { id: number; type: QType; answer: string[]; difficulty: number; score: number }[];

/** Who made the demo papers of each subject (usernames of the demo accounts). */
const DEMO_AUTHORS: Record<string, string> = { 数学: 'teacher', 语文: 'director', 英语: 'creator' };

/**
 * The demo semester for a school: its first school year, with the demo accounts as the subjects'
 * teachers. Unit tests call it on the demo school when they need the semester (the demo seed skips it
 * under NODE_ENV=test to keep every other test fast).
 */
export async function seedSemesterForSchool(db: Db, orgId: number, now = new Date()): Promise<boolean> {
  const [year] = await db
    .select({ id: classes.id })
    .from(classes)
    .where(and(eq(classes.orgId, orgId), eq(classes.type, CLASS_TYPE.schoolYear)))
    .orderBy(asc(classes.sort), asc(classes.id))
    .limit(1);
  if (!year) return false;
  const accounts = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.username, Object.values(DEMO_AUTHORS)));
  const authors = Object.fromEntries(
    Object.entries(DEMO_AUTHORS).map(([subject, username]) => [
      subject,
      accounts.find((u) => u.username === username)?.id ?? null,
    ]),
  );
  // In one transaction (a savepoint inside the demo seed's), so the foreign-key shortcut applies.
  return db.transaction((tx) => seedSemesterDemo(tx as unknown as Db, { orgId, schoolYearId: year.id, authors }, now));
}

export async function seedSemesterDemo(
  db: Db,
  school: { orgId: number; schoolYearId: number; authors: Record<string, number | null> },
  now = new Date(),
): Promise<boolean> {
  const [existing] = await db.select({ value: count() }).from(questionScores).where(eq(questionScores.orgId, school.orgId));
  if ((existing?.value ?? 0) > 0) return false;
  const random = generator(20260901);

  const klasses = await db
    .select({ id: classes.id })
    .from(classes)
    .where(and(eq(classes.orgId, school.orgId), eq(classes.type, CLASS_TYPE.klass), eq(classes.pid, school.schoolYearId)))
    .orderBy(asc(classes.sort), asc(classes.id));
  const classIds = klasses.map((k) => k.id);
  if (classIds.length === 0) return false;
  const studentRows = await db
    .select({ id: students.id, classId: students.classId })
    .from(students)
    .where(and(eq(students.orgId, school.orgId), inArray(students.classId, classIds)))
    .orderBy(asc(students.id));
  const cohort = modelStudents(studentRows, classIds, random);
  const subjectRows = await db
    .select({ id: subjects.id, name: subjects.name })
    .from(subjects)
    .where(eq(subjects.orgId, school.orgId));

  const answerRows: AnswerRow[] = [];
  const absences: (typeof homeworkAbsences.$inferInsert)[] = [];
  // The demo homework under way (seed-papers' `answered`): a share of their students scanned and marked,
  // drawn from a generator of their own so the semester's figures stay as they are.
  const underWay = await db
    .select({
      id: homework.id,
      title: homework.title,
      paperId: homework.paperId,
      createdBy: homework.createdBy,
      subjectId: papers.subjectId,
      startDate: homework.startDate,
      dueDate: homework.dueDate,
    })
    .from(homework)
    .innerJoin(papers, eq(papers.id, homework.paperId))
    .where(and(eq(homework.orgId, school.orgId), inArray(homework.title, [...DEMO_HOMEWORK_ANSWERED.keys()])));
  const demoRandom = generator(20261101);

  for (const [subjectName, plan] of Object.entries(PLANS)) {
    const subject = subjectRows.find((s) => s.name === subjectName);
    if (!subject) continue;
    const bankRows = await db
      .select({ id: questions.id, type: questions.type, answer: questions.answer, difficulty: questions.difficulty })
      .from(questions)
      .where(eq(questions.subjectId, subject.id))
      .orderBy(asc(questions.id));
    const bank: Bank = bankRows.map((q) => ({
      ...q,
      type: q.type as QType,
      score: q.type === 'subjective' ? 10 : q.type === 'blank' ? 2 : q.type === 'multiple' ? 4 : 3,
    }));
    // Question parameters, fixed per bank question so a question behaves alike in every homework.
    const params = new Map(
      bank.map((q) => [
        q.id,
        {
          a: 0.7 + random() * 1.3,
          b: (q.difficulty - 3) * 0.7 - 0.4 + normal(random) * 0.3,
          favourite: Math.floor(random() * 3),
        },
      ]),
    );
    const author = school.authors[subjectName] ?? null;

    for (let h = 0; h < SEMESTER_HOMEWORK_PER_SUBJECT; h += 1) {
      const week = Math.floor((h * SEMESTER_WEEKS) / SEMESTER_HOMEWORK_PER_SUBJECT);
      const daysAgo = (SEMESTER_WEEKS - week) * 7 + 2 + Object.keys(PLANS).indexOf(subjectName);
      const start = new Date(now.getTime() - daysAgo * 86_400_000);
      const due = new Date(start.getTime() + 2 * 86_400_000);
      const sections = plan
        .map(([type, wanted]) => {
          const ofType = bank.filter((q) => q.type === type);
          const from = ofType.length > wanted ? (h * wanted) % ofType.length : 0;
          return { type, picked: [...ofType.slice(from), ...ofType.slice(0, from)].slice(0, wanted) };
        })
        .filter((s) => s.picked.length > 0);
      const title = `${TITLES[subjectName]![h]}`;
      const [paper] = await db
        .insert(papers)
        .values({
          orgId: school.orgId,
          subjectId: subject.id,
          schoolYearId: school.schoolYearId,
          title,
          createdBy: author,
          createdAt: start,
        })
        .returning({ id: papers.id });
      const sectionRows = await db
        .insert(paperSections)
        .values(sections.map((s, i) => ({ paperId: paper!.id, sort: i, title: `${SECTION_NAMES[i]}、${TYPE_NAMES[s.type]}` })))
        .returning({ id: paperSections.id });
      let no = 0;
      const paperRows = sections.flatMap((s, i) =>
        s.picked.map((q) => {
          no += 1;
          return { paperId: paper!.id, sectionId: sectionRows[i]!.id, questionId: q.id, no, score: q.score, q };
        }),
      );
      await db.insert(paperQuestions).values(paperRows.map(({ q: _q, ...row }) => row));
      const [hw] = await db
        .insert(homework)
        .values({
          orgId: school.orgId,
          paperId: paper!.id,
          title,
          status: 'finished',
          startDate: isoDate(start),
          dueDate: isoDate(due),
          createdBy: author,
          createdAt: start,
        })
        .returning({ id: homework.id });
      await db.insert(homeworkClasses).values(classIds.map((classId) => ({ homeworkId: hw!.id, classId })));
      // In the math homework of week 4, the strong students contradict the key of the first question.
      const suspectQuestion = subjectName === '数学' && h === 3 ? 1 : -1;

      for (const student of cohort) {
        // A long illness keeps one student away for two homework; others miss one now and then.
        const sick = student.id === cohort[11]?.id && (h === 4 || h === 5);
        if (sick || random() < ABSENT_RATE) {
          // Recorded as 缺考 (as a teacher does on /correct), so the student status says absent, not 未扫描.
          absences.push({ homeworkId: hw!.id, studentId: student.id, orgId: school.orgId, markedBy: author });
          continue;
        }
        const theta = student.theta + student.drift * week + normal(random) * 0.25;
        answerRows.push(
          ...answerPaper({ hw: hw!.id, student: student.id, theta, due, rows: paperRows, params, suspectQuestion }, random),
        );
      }
    }

    for (const demo of underWay.filter((d) => d.subjectId === subject.id)) {
      const questionRows = await db
        .select({
          no: paperQuestions.no,
          score: paperQuestions.score,
          id: questions.id,
          type: questions.type,
          answer: questions.answer,
        })
        .from(paperQuestions)
        .innerJoin(questions, eq(questions.id, paperQuestions.questionId))
        .where(eq(paperQuestions.paperId, demo.paperId))
        .orderBy(asc(paperQuestions.no));
      const rows = questionRows
        .filter((r) => params.has(r.id))
        .map((r) => ({ no: r.no, score: r.score, q: { id: r.id, type: r.type as QType, answer: r.answer } }));
      const assigned = await db
        .select({ classId: homeworkClasses.classId })
        .from(homeworkClasses)
        .where(eq(homeworkClasses.homeworkId, demo.id));
      const inClasses = new Set(assigned.map((a) => a.classId));
      const share = DEMO_HOMEWORK_ANSWERED.get(demo.title) ?? 0;
      const due = new Date(`${demo.dueDate}T12:00:00Z`);
      const weeksAgo = Math.floor((now.getTime() - new Date(`${demo.startDate}T00:00:00Z`).getTime()) / (7 * 86_400_000));
      const week = Math.min(SEMESTER_WEEKS, Math.max(0, SEMESTER_WEEKS - weeksAgo));
      for (const student of cohort.filter((c) => inClasses.has(classIds[c.classIndex]!))) {
        // Not scanned yet (the rest of the class is scanned when the demo is tried).
        if (demoRandom() >= share) continue;
        if (share === 1 && demoRandom() < ABSENT_RATE) {
          absences.push({ homeworkId: demo.id, studentId: student.id, orgId: school.orgId, markedBy: demo.createdBy });
          continue;
        }
        const theta = student.theta + student.drift * week + normal(demoRandom) * 0.25;
        answerRows.push(
          ...answerPaper({ hw: demo.id, student: student.id, theta, due, rows, params, suspectQuestion: -1 }, demoRandom),
        );
      }
    }
  }
  await insertScores(db, school.orgId, answerRows);
  if (absences.length) await db.insert(homeworkAbsences).values(absences);
  // Their statuses follow from their scores, by the rule marking applies.
  for (const demo of underWay) await syncHomeworkStatus(db, school.orgId, demo.id);
  await seedWrongBook(db, school.orgId);
  await db
    .update(questions)
    .set({
      usageCount: sql`(select count(distinct ${paperQuestions.paperId}) from ${paperQuestions} where ${paperQuestions.questionId} = ${questions.id})`,
    })
    .where(inArray(questions.id, db.select({ id: paperQuestions.questionId }).from(paperQuestions)));
  return true;
}

/**
 * The markers' error causes on hand-marked answers that lost marks (a fixed mix of the default list),
 * then the wrong-question book built from the scores by the same function marking calls.
 */
async function seedWrongBook(db: Db, orgId: number) {
  const causes = sql.raw(`array[${DEFAULT_ERROR_CAUSES.map((c) => `'${c}'`).join(',')}]`);
  await db.execute(sql`
    update question_scores qs set error_cause = case when qs.score = 0 and (qs.student_id + qs.question_no) % 4 = 0
      then '未作答' else (${causes})[1 + (qs.student_id * 7 + qs.question_no * 3) % 4] end
    from homework h, paper_questions pq
    where h.id = qs.homework_id and pq.paper_id = h.paper_id and pq.no = qs.question_no
      and qs.org_id = ${orgId} and qs.source = 'marked' and qs.score < pq.score`);
  await db.execute(sql`
    update marking_tasks mt set error_cause = qs.error_cause from question_scores qs
    where qs.answer_id = mt.answer_id and qs.org_id = ${orgId} and qs.error_cause is not null`);
  const scored = await db
    .selectDistinct({ id: questionScores.studentId })
    .from(questionScores)
    .where(eq(questionScores.orgId, orgId));
  await recomputeWrongBook(
    db,
    orgId,
    scored.map((row) => row.id),
  );
}

/**
 * Answers, marking tasks (manual questions) and final scores in one statement: the rows are parsed once
 * from JSON and take their answer ids from the answers' sequence, so the tasks and scores need no join
 * back. The marker of a task is the homework's author.
 */
async function insertScores(db: Db, orgId: number, rows: AnswerRow[]) {
  if (rows.length === 0) return;
  // Compact rows: labels as a string of letters ('' = blank), the time as minutes after the epoch.
  const payload = JSON.stringify(
    rows.map((r) => [r.hw, r.sid, r.qno, r.labels === null ? null : r.labels.join(''), r.score, r.manual ? 1 : 0, r.at]),
  );
  // The rows are consistent by construction; checking ~200k foreign keys one by one is most of the cost.
  // Only a superuser may skip them (PGlite, the development server); elsewhere the checks stay on.
  await foreignKeyChecks(db, false);
  await db.execute(sql`
    with r as materialized (
      select nextval(pg_get_serial_sequence('answers', 'id')) as id,
             (e->>0)::int as hw, (e->>1)::int as sid, (e->>2)::int as qno, e->>3 as l,
             (e->>4)::double precision as score, (e->>5)::int = 1 as manual,
             to_timestamp((e->>6)::bigint * 60) as at
      from jsonb_array_elements(${payload}::jsonb) as e
    ),
    a as (
      insert into answers (id, org_id, homework_id, student_id, question_no, labels, auto_score, created_at)
      select id, ${orgId}, hw, sid, qno,
             case when l is null then null when l = '' then '[]'::jsonb else to_jsonb(regexp_split_to_array(l, '')) end,
             case when manual then null else score end,
             at
      from r
    ),
    t as (
      insert into marking_tasks (org_id, homework_id, answer_id, student_id, question_no, round, marker_id, score, scored_at, created_at)
      select ${orgId}, r.hw, r.id, r.sid, r.qno, 1, h.created_by, r.score, r.at, r.at
      from r join homework h on h.id = r.hw
      where r.manual
    )
    insert into question_scores (homework_id, student_id, question_no, org_id, answer_id, score, source, updated_at)
    select hw, sid, qno, ${orgId}, id, score, case when manual then 'marked' else 'auto' end, at from r`);
  await foreignKeyChecks(db, true);
}

/** Turns foreign-key triggers off or on until the end of the transaction, where the role allows it. */
async function foreignKeyChecks(db: Db, on: boolean) {
  try {
    await db.transaction(async (savepoint) => {
      await savepoint.execute(
        on ? sql`set local session_replication_role = origin` : sql`set local session_replication_role = replica`,
      );
    });
  } catch {
    // Not a superuser: the checks simply stay on.
  }
}
