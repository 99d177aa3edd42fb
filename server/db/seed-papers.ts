/**
 * Demo question bank, students and homework for the demo school: loads the seed bank
 * (seed-data/question-bank.ts) as the shared bank (org_id null) on the school's subjects of the same
 * name, fills the four classes of the first school year with 40 students each, and assigns a dozen
 * papers built from bank questions in every homework status. Deterministic; batch inserts only.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { HomeworkStatus, QuestionType } from '../../src/shared/contract/papers';
import { CLASS_TYPE } from '../../src/shared/contract/system';
import type { Db } from './client';
import { classes, subjects } from './schema';
import {
  chapters,
  homework,
  homeworkClasses,
  knowledgePoints,
  paperQuestions,
  papers,
  paperSections,
  questionChapters,
  questionKnowledgePoints,
  questions,
  students,
} from './schema-papers';
import { questionSetItems, questionSets } from './schema-question-sets';
import { questionBanks } from './seed-data/question-bank';
import type { SeedQuestion, SeedTreeNode } from './seed-data/question-bank.types';

export const DEMO_STUDENTS_PER_CLASS = 40;
export const DEMO_STUDENT_CODE_PREFIX = '202601';

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN =
  '子涵欣怡梓轩浩然雨桐一诺宇航思远佳琪博文梓萱俊杰诗琪明轩晨曦嘉怡若曦天佑可馨宇轩语嫣皓轩紫涵子墨昊天雅婷睿哲梦琪泽宇欣妍家豪静怡铭轩心怡锦程安琪志远书瑶';

/** A small deterministic generator (mulberry32), so every fresh demo has the same names. */
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

/** `count` distinct realistic names: a surname and one or two given-name characters. */
export function demoStudentNames(count: number, seed = 2026): string[] {
  const random = generator(seed);
  const pick = (chars: string) => chars[Math.floor(random() * chars.length)]!;
  const names = new Set<string>();
  while (names.size < count) {
    const given = random() < 0.7 ? pick(GIVEN) + pick(GIVEN) : pick(GIVEN);
    if (given.length === 2 && given[0] === given[1]) continue;
    names.add(pick(SURNAMES) + given);
  }
  return [...names];
}

/** Inserts a tree level by level; answers the id of each node by its path ('a/b/c'). */
async function insertTree(
  db: Db,
  table: typeof chapters | typeof knowledgePoints,
  subjectId: number,
  roots: readonly SeedTreeNode[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  let level = roots.map((node, sort) => ({ node, path: node.name, parent: undefined as string | undefined, sort }));
  while (level.length > 0) {
    const rows = await db
      .insert(table)
      .values(
        level.map((item) => ({
          orgId: null,
          subjectId,
          pid: item.parent === undefined ? null : ids.get(item.parent)!,
          name: item.node.name,
          sort: item.sort + 1,
        })),
      )
      .returning({ id: table.id });
    level.forEach((item, i) => ids.set(item.path, rows[i]!.id));
    level = level.flatMap((item) =>
      (item.node.children ?? []).map((child, sort) => ({
        node: child,
        path: `${item.path}/${child.name}`,
        parent: item.path,
        sort,
      })),
    );
  }
  return ids;
}

type LoadedQuestion = { id: number; seed: SeedQuestion };

async function seedBank(db: Db, orgId: number): Promise<Map<string, LoadedQuestion[]>> {
  const subjectRows = await db.select({ id: subjects.id, name: subjects.name }).from(subjects).where(eq(subjects.orgId, orgId));
  const loaded = new Map<string, LoadedQuestion[]>();
  for (const bank of questionBanks) {
    const subject = subjectRows.find((s) => s.name === bank.subject);
    if (!subject) continue;
    const chapterIds = await insertTree(db, chapters, subject.id, bank.chapters);
    const pointIds = await insertTree(db, knowledgePoints, subject.id, bank.knowledgePoints);
    // Questions name knowledge points by their own name; the deepest node of that name wins.
    const pointByName = new Map<string, number>();
    for (const [path, id] of [...pointIds.entries()].sort((a, b) => a[0].split('/').length - b[0].split('/').length)) {
      pointByName.set(path.split('/').pop()!, id);
    }
    const rows = await db
      .insert(questions)
      .values(
        bank.questions.map((q) => ({
          orgId: null,
          subjectId: subject.id,
          type: q.type,
          stem: q.stem,
          options: q.options ?? [],
          answer: q.answer,
          analysis: q.analysis,
          difficulty: q.difficulty,
          source: q.source ?? '',
        })),
      )
      .returning({ id: questions.id });
    const list = bank.questions.map((seed, i) => ({ id: rows[i]!.id, seed }));
    await db.insert(questionChapters).values(
      list.flatMap(({ id, seed }) => {
        const chapterId = chapterIds.get(seed.chapter.join('/'));
        return chapterId === undefined ? [] : [{ questionId: id, chapterId }];
      }),
    );
    await db
      .insert(questionKnowledgePoints)
      .values(
        list.flatMap(({ id, seed }) =>
          [...new Set(seed.knowledgePoints.map((name) => pointByName.get(name)))]
            .filter((pointId): pointId is number => pointId !== undefined)
            .map((knowledgePointId) => ({ questionId: id, knowledgePointId })),
        ),
      );
    loaded.set(bank.subject, list);
  }
  return loaded;
}

/** Section plan of a demo paper: question type and how many, in paper order. */
const PAPER_PLANS: Record<string, [QuestionType, number][]> = {
  数学: [
    ['single', 6],
    ['judge', 3],
    ['blank', 4],
    ['subjective', 2],
  ],
  语文: [
    ['single', 5],
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
const SECTION_NAMES = ['一', '二', '三', '四', '五'];
const TYPE_NAMES: Record<QuestionType, string> = {
  single: '单选题',
  multiple: '多选题',
  judge: '判断题',
  blank: '填空题',
  subjective: '解答题',
};

type DemoHomeworkPlan = {
  subject: string;
  title: string;
  status: HomeworkStatus;
  daysAgo: number;
  classes: number[];
  /** The paper's sections, when not the subject's PAPER_PLANS. */
  sections?: [QuestionType, number][];
  /** Shared to 校本资料 by its author a day after it started, so the school's library is not empty. */
  shared?: boolean;
  /**
   * With the demo semester (seed-semester.ts): the share of its classes' students already scanned and
   * marked (the rest 未扫描, for the scan demo); its status then follows from the scores by the status rule.
   */
  answered?: number;
};

/**
 * The twelve demo homework: subject, title, status, how many days ago it started, which classes (0..3).
 * The statuses are what the status rule gives once the demo semester has answered them (`answered`).
 */
const DEMO_HOMEWORK: DemoHomeworkPlan[] = [
  { subject: '数学', title: '有理数单元练习', status: 'finished', daysAgo: 35, classes: [0, 1, 2, 3], shared: true, answered: 1 },
  { subject: '语文', title: '第一单元基础练习', status: 'marking', daysAgo: 33, classes: [0, 1], shared: true, answered: 0.7 },
  {
    subject: '英语',
    title: 'Starter Units 词汇与语法',
    status: 'finished',
    daysAgo: 30,
    classes: [0, 1, 2, 3],
    shared: true,
    answered: 1,
  },
  { subject: '数学', title: '整式的加减课后作业', status: 'marking', daysAgo: 26, classes: [0, 1], answered: 0.7 },
  { subject: '语文', title: '古诗文默写与理解', status: 'marking', daysAgo: 21, classes: [2, 3], shared: true, answered: 0.9 },
  { subject: '数学', title: '一元一次方程周测', status: 'marking', daysAgo: 17, classes: [0, 1, 2, 3], answered: 0.9 },
  { subject: '英语', title: 'Unit 1 课时练习', status: 'assigned', daysAgo: 12, classes: [0, 1] },
  { subject: '数学', title: '几何图形初步练习', status: 'assigned', daysAgo: 9, classes: [2, 3] },
  { subject: '语文', title: '现代文阅读专项', status: 'assigned', daysAgo: 5, classes: [0, 1, 2, 3] },
  { subject: '英语', title: 'Unit 2 单元检测', status: 'assigned', daysAgo: 3, classes: [2, 3] },
  { subject: '数学', title: '相交线与平行线预习', status: 'assigned', daysAgo: 1, classes: [0, 1] },
  { subject: '语文', title: '名著导读《朝花夕拾》', status: 'draft', daysAgo: 0, classes: [0] },
];

/** The demo homework under way, by title, with the share of their students scanned and marked. */
export const DEMO_HOMEWORK_ANSWERED = new Map(
  DEMO_HOMEWORK.filter((plan) => plan.answered !== undefined).map((plan) => [plan.title, plan.answered!]),
);

/**
 * The homework whose answer sheets go through the real scan path (server/services/scan/demo-scans.ts
 * draws, stores and recognises them after start): multiple choice beside single choice, judgement and
 * hand-marked questions, for the first class. Not seeded in unit tests.
 */
export const DEMO_SCANNED_HOMEWORK: DemoHomeworkPlan = {
  subject: '数学',
  title: '有理数的乘除法答题卡练习',
  status: 'assigned',
  daysAgo: 6,
  classes: [0],
  sections: [
    ['single', 6],
    ['multiple', 3],
    ['judge', 3],
    ['subjective', 2],
  ],
};

function isoDate(date: Date) {
  return date.toISOString().slice(0, 10);
}

async function seedStudents(db: Db, orgId: number, klasses: { id: number }[]) {
  const names = demoStudentNames(klasses.length * DEMO_STUDENTS_PER_CLASS);
  await db.insert(students).values(
    klasses.flatMap((klass, c) =>
      Array.from({ length: DEMO_STUDENTS_PER_CLASS }, (_, s) => ({
        orgId,
        classId: klass.id,
        name: names[c * DEMO_STUDENTS_PER_CLASS + s]!,
        code: `${DEMO_STUDENT_CODE_PREFIX}${String(c + 1).padStart(2, '0')}${String(s + 1).padStart(2, '0')}`,
      })),
    ),
  );
}

async function seedHomework(
  db: Db,
  school: { orgId: number; schoolYearId: number; authors: Record<string, number | null> },
  klasses: { id: number }[],
  bank: Map<string, LoadedQuestion[]>,
  now: Date,
  plans: readonly DemoHomeworkPlan[],
) {
  const subjectRows = await db
    .select({ id: subjects.id, name: subjects.name })
    .from(subjects)
    .where(eq(subjects.orgId, school.orgId));
  const usedPerSubject = new Map<string, number>();
  for (const plan of plans) {
    const subject = subjectRows.find((s) => s.name === plan.subject);
    const pool = (bank.get(plan.subject) ?? []).filter((q) => q.seed.grade === '七年级');
    if (!subject || pool.length === 0) continue;
    const round = usedPerSubject.get(plan.subject) ?? 0;
    usedPerSubject.set(plan.subject, round + 1);
    const sections = (plan.sections ?? PAPER_PLANS[plan.subject]!)
      .map(([type, wanted]) => {
        const ofType = pool.filter((q) => q.seed.type === type);
        // Each paper of a subject starts further into the bank, so the demo papers differ.
        const start = ofType.length > wanted ? (round * wanted) % ofType.length : 0;
        const picked = [...ofType.slice(start), ...ofType.slice(0, start)].slice(0, wanted);
        return { type, picked };
      })
      .filter((section) => section.picked.length > 0);

    const start = new Date(now.getTime() - plan.daysAgo * 86_400_000);
    const due = new Date(start.getTime() + 3 * 86_400_000);
    const author = school.authors[plan.subject] ?? null;
    const [paper] = await db
      .insert(papers)
      .values({
        orgId: school.orgId,
        subjectId: subject.id,
        schoolYearId: school.schoolYearId,
        title: plan.title,
        paperSize: 'A4',
        createdBy: author,
        createdAt: start,
        sharedAt: plan.shared ? new Date(start.getTime() + 86_400_000) : null,
      })
      .returning({ id: papers.id });
    const sectionRows = await db
      .insert(paperSections)
      .values(
        sections.map((section, i) => ({
          paperId: paper!.id,
          sort: i,
          title: `${SECTION_NAMES[i]}、${TYPE_NAMES[section.type]}`,
        })),
      )
      .returning({ id: paperSections.id });
    let no = 0;
    await db.insert(paperQuestions).values(
      sections.flatMap((section, i) =>
        section.picked.map((q) => {
          no += 1;
          return { paperId: paper!.id, sectionId: sectionRows[i]!.id, questionId: q.id, no, score: q.seed.score ?? 3 };
        }),
      ),
    );
    const [row] = await db
      .insert(homework)
      .values({
        orgId: school.orgId,
        paperId: paper!.id,
        title: plan.title,
        status: plan.status,
        startDate: isoDate(start),
        dueDate: isoDate(due),
        createdBy: author,
        createdAt: start,
      })
      .returning({ id: homework.id });
    await db.insert(homeworkClasses).values(plan.classes.map((c) => ({ homeworkId: row!.id, classId: klasses[c]!.id })));
  }
  await db
    .update(questions)
    .set({
      usageCount: sql`(select count(distinct ${paperQuestions.paperId}) from ${paperQuestions} where ${paperQuestions.questionId} = ${questions.id})`,
    })
    .where(
      and(isNull(questions.orgId), inArray(questions.id, db.select({ id: paperQuestions.questionId }).from(paperQuestions))),
    );
}

/**
 * Loads the bank, the students of the first school year's classes and the demo homework. `authors`
 * maps a subject name to the user who made its papers. `scanned`: also the homework whose sheets are
 * scanned after start (DEMO_SCANNED_HOMEWORK).
 */
export async function seedPapersDemo(
  db: Db,
  school: { orgId: number; schoolYearId: number; authors: Record<string, number | null> },
  now = new Date(),
  options: { scanned?: boolean } = {},
) {
  const bank = await seedBank(db, school.orgId);
  const klasses = await db
    .select({ id: classes.id })
    .from(classes)
    .where(and(eq(classes.orgId, school.orgId), eq(classes.type, CLASS_TYPE.klass), eq(classes.pid, school.schoolYearId)))
    .orderBy(asc(classes.sort), asc(classes.id));
  await seedStudents(db, school.orgId, klasses);
  await seedHomework(db, school, klasses, bank, now, options.scanned ? [...DEMO_HOMEWORK, DEMO_SCANNED_HOMEWORK] : DEMO_HOMEWORK);
  await seedQuestionSet(db, school, bank, now);
}

/**
 * One 题目合集 in 校本资料, shared by the maths teacher: the bank's questions of its first maths chapter, so
 * the 题目合集 tab is not empty on a fresh start.
 */
async function seedQuestionSet(
  db: Db,
  school: { orgId: number; schoolYearId: number; authors: Record<string, number | null> },
  bank: Map<string, LoadedQuestion[]>,
  now: Date,
) {
  const maths = bank.get('数学') ?? [];
  const chapter = maths[0]?.seed.chapter.join('/');
  const picked = maths.filter((q) => q.seed.chapter.join('/') === chapter).slice(0, 10);
  const [subject] = await db
    .select({ id: subjects.id })
    .from(subjects)
    .where(and(eq(subjects.orgId, school.orgId), eq(subjects.name, '数学')));
  if (!subject || picked.length === 0) return;
  const sharedAt = new Date(now.getTime() - 7 * 86_400_000);
  const [set] = await db
    .insert(questionSets)
    .values({
      orgId: school.orgId,
      subjectId: subject.id,
      schoolYearId: school.schoolYearId,
      name: `${maths[0]!.seed.chapter.at(-1)}·精选练习`,
      description: '本章基础题与易错题，可直接组卷布置。',
      createdBy: school.authors['数学'] ?? null,
      createdAt: sharedAt,
      updatedAt: sharedAt,
      sharedAt,
    })
    .returning({ id: questionSets.id });
  await db.insert(questionSetItems).values(picked.map((q, sort) => ({ setId: set!.id, questionId: q.id, sort })));
}
