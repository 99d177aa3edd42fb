/**
 * Contract of learning analysis (学情分析), the homework assistant (数据分析 / 作业讲评 / 作业详情 / 报告),
 * the grade director's data centre (数据中心) and the school's big-data screen. Figures are computed by
 * src/shared/lib/analysis-stats.ts; rates are fractions 0..1. Who may see what is decided by the server
 * from the session, never from these filters.
 */
import { z } from 'zod';
import { studentStatusSchema } from './marking';
import { formIdSchema, idSchema } from './primitives';

const queryId = formIdSchema;
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(value)), '日期无效');

const range = { from: isoDate.optional(), to: isoDate.optional() };
const checkRange = (value: { from?: string; to?: string }) => !value.from || !value.to || value.from <= value.to;
const RANGE_MESSAGE = { message: '开始日期不能晚于结束日期', path: ['from'] };

export const gradeFilterSchema = z
  .object({ schoolYearId: queryId, subjectId: queryId, ...range })
  .strict()
  .refine(checkRange, RANGE_MESSAGE);
export type GradeFilter = z.infer<typeof gradeFilterSchema>;

export const classFilterSchema = z
  .object({ classId: queryId, subjectId: queryId, ...range })
  .strict()
  .refine(checkRange, RANGE_MESSAGE);
export type ClassFilter = z.infer<typeof classFilterSchema>;

/**
 * A class's students for 学生学情's picker (班级 -> 学生): just who they are, without the class view's
 * figures. Seen under the class view's rule (the class and subject the session may see).
 */
export const classRosterQuerySchema = z.object({ classId: queryId, subjectId: queryId }).strict();
export type ClassRosterQuery = z.infer<typeof classRosterQuerySchema>;
export const classRosterSchema = z.object({
  classId: z.number(),
  /** In 学号 order. */
  students: z.array(z.object({ id: z.number(), name: z.string(), code: z.string() })),
});
export type ClassRoster = z.infer<typeof classRosterSchema>;

export const personFilterSchema = z
  .object({ studentId: queryId, subjectId: queryId, ...range })
  .strict()
  .refine(checkRange, RANGE_MESSAGE);
export type PersonFilter = z.infer<typeof personFilterSchema>;

export const homeworkAnalysisParamsSchema = z.object({ id: queryId });
export const homeworkAnalysisQuerySchema = z.object({ classId: queryId.optional() }).strict();
/**
 * A projected view of one homework (作业讲评): `anonymous` answers without students' names, codes and ranks;
 * `named` with them, only where the school year allows named lists (the rank setting). Without it: the
 * teacher's own view, with names.
 */
export const HOMEWORK_PROJECTIONS = ['anonymous', 'named'] as const;
export type HomeworkProjection = (typeof HOMEWORK_PROJECTIONS)[number];
export const homeworkViewQuerySchema = homeworkAnalysisQuerySchema
  .extend({ projection: z.enum(HOMEWORK_PROJECTIONS).optional() })
  .strict();

export const ANALYSIS_MESSAGES = {
  namesNotAllowed: '该学年不允许在讲评中公开学生姓名（义务教育阶段默认不公开，可在排名设置中开启）',
};

export const dataCenterFilterSchema = z
  .object({ schoolYearId: queryId, subjectId: queryId.optional(), homeworkId: queryId.optional() })
  .strict();
export type DataCenterFilter = z.infer<typeof dataCenterFilterSchema>;

// ---------- shared pieces ----------

const rate = z.number().nullable();
export const gradeBandSchema = z.enum(['优秀', '良好', '合格', '待合格']);

export const participationSchema = z.object({
  enrolled: z.number(),
  participants: z.number(),
  absent: z.number(),
  rate,
});

/**
 * The 优秀 / 良好 / 及格 (>= line) and 低分 (< line) lines a view used, as fractions of the full mark: the
 * school year and subject's own (学校设置 · 各学年学科分数线), else the school's.
 */
export const rateLinesSchema = z.object({ excellent: z.number(), good: z.number(), pass: z.number(), low: z.number() });
export type RateLinesOut = z.infer<typeof rateLinesSchema>;

export const levelRatesSchema = z
  .object({ excellentRate: z.number(), goodRate: z.number(), passRate: z.number(), lowRate: z.number() })
  .nullable();

export const descriptiveSchema = z.object({
  n: z.number(),
  mean: rate,
  sd: rate,
  median: rate,
  max: rate,
  min: rate,
  mode: z.array(z.number()),
});

export const optionDistributionSchema = z.object({
  options: z.array(z.object({ label: z.string(), count: z.number(), upperCount: z.number(), isKey: z.boolean() })),
  keyCount: z.number(),
  blankCount: z.number(),
  keySuspect: z.boolean(),
});

export const questionStatsSchema = z.object({
  no: z.number(),
  type: z.enum(['single', 'multiple', 'judge', 'blank', 'subjective']),
  full: z.number(),
  n: z.number(),
  mean: rate,
  scoreRate: rate,
  scoreRateBand: z.string().nullable(),
  discrimination: rate,
  discriminationBand: z.string().nullable(),
  itemRest: rate,
  blankRate: rate,
  fullCount: z.number(),
  zeroCount: z.number(),
  options: optionDistributionSchema.nullable(),
  flags: z.array(z.string()),
});
export type QuestionStatsView = z.infer<typeof questionStatsSchema>;

export const knowledgePointStatsSchema = z.object({
  id: z.number(),
  name: z.string(),
  questionCount: z.number(),
  mastery: rate,
  rawRate: rate,
});

/** The figures of one homework over a set of students (a class or the grade). */
export const homeworkSummarySchema = z.object({
  full: z.number(),
  participation: participationSchema,
  totals: descriptiveSchema,
  scoreRate: rate,
  levels: levelRatesSchema,
  bands: z.array(z.object({ label: z.string(), count: z.number() })),
  gradeBands: z.array(z.object({ band: gradeBandSchema, count: z.number() })),
  reliability: z.object({ method: z.enum(['KR-20', 'alpha']), alpha: z.number(), sem: z.number(), band: z.string() }).nullable(),
});
export type HomeworkSummary = z.infer<typeof homeworkSummarySchema>;

const ref = z.object({ id: z.number(), name: z.string() });

// ---------- options for the filters ----------

export const analysisOptionsSchema = z.object({
  schoolYears: z.array(ref.extend({ ranksAllowed: z.boolean(), ranksEnabled: z.boolean().nullable() })),
  subjects: z.array(ref),
  classes: z.array(ref.extend({ schoolYearId: z.number() })),
  homework: z.array(
    z.object({
      id: z.number(),
      title: z.string(),
      subjectId: z.number(),
      schoolYearId: z.number(),
      startDate: z.string(),
      classIds: z.array(z.number()),
      /** Whether any student has a mark yet (the pages open the newest scored homework). */
      scored: z.boolean(),
    }),
  ),
  gradeDirector: z.boolean(),
});
export type AnalysisOptions = z.infer<typeof analysisOptionsSchema>;

// ---------- grade and class overview ----------

export const overviewHomeworkSchema = z.object({
  id: z.number(),
  title: z.string(),
  startDate: z.string(),
  /** Over the classes of the view (the grade, or the one class). */
  summary: homeworkSummarySchema,
  /** The whole grade's score rate (for class vs grade). */
  gradeScoreRate: rate,
  classes: z.array(
    z.object({ classId: z.number(), scoreRate: rate, mean: rate, participants: z.number(), enrolled: z.number() }),
  ),
});

export const overviewStudentSchema = z.object({
  studentId: z.number(),
  name: z.string(),
  code: z.string(),
  classId: z.number(),
  className: z.string(),
  /** Sum of marks / sum of full marks over the homework taken. */
  scoreRate: rate,
  band: gradeBandSchema.nullable(),
  taken: z.number(),
  absent: z.number(),
  /** Only where the school year shows ranks. */
  rank: z.number().nullable(),
});
export type OverviewStudent = z.infer<typeof overviewStudentSchema>;

export const analysisOverviewSchema = z.object({
  scope: z.object({ schoolYearId: z.number(), subjectId: z.number(), classId: z.number().nullable(), title: z.string() }),
  ranksAllowed: z.boolean(),
  lines: rateLinesSchema,
  homework: z.array(overviewHomeworkSchema),
  /** Over every homework of the range: participations, mean score rate, level rates of student rates. */
  totals: z.object({
    homeworkCount: z.number(),
    participants: z.number(),
    enrolled: z.number(),
    scoreRate: rate,
    gradeScoreRate: rate,
    gradeBands: z.array(z.object({ band: gradeBandSchema, count: z.number() })),
    bands: z.array(z.object({ label: z.string(), count: z.number() })),
  }),
  classes: z.array(
    z.object({ classId: z.number(), name: z.string(), scoreRate: rate, participants: z.number(), enrolled: z.number() }),
  ),
  /** Knowledge point x class mastery. */
  heatmap: z.object({
    classes: z.array(ref),
    points: z.array(ref.extend({ questionCount: z.number() })),
    /** [pointIndex][classIndex] mastery; null = 数据不足. */
    cells: z.array(z.array(rate)),
  }),
  students: z.array(overviewStudentSchema),
});
export type AnalysisOverview = z.infer<typeof analysisOverviewSchema>;

// ---------- one student ----------

export const personAnalysisSchema = z.object({
  student: z.object({ id: z.number(), name: z.string(), code: z.string(), className: z.string(), classId: z.number() }),
  subject: ref,
  ranksAllowed: z.boolean(),
  trend: z.array(
    z.object({
      homeworkId: z.number(),
      title: z.string(),
      startDate: z.string(),
      absent: z.boolean(),
      total: rate,
      full: z.number(),
      scoreRate: rate,
      classScoreRate: rate,
      band: gradeBandSchema.nullable(),
      right: z.number(),
      wrong: z.number(),
      blank: z.number(),
      /** Competition ranks in the class and in the grade (the homework's classes); null where ranks are off. */
      classRank: z.number().nullable(),
      gradeRank: z.number().nullable(),
    }),
  ),
  summary: z.object({ taken: z.number(), absent: z.number(), scoreRate: rate, band: gradeBandSchema.nullable() }),
  knowledgePoints: z.array(knowledgePointStatsSchema),
  wrongQuestions: z.array(
    z.object({
      homeworkId: z.number(),
      title: z.string(),
      no: z.number(),
      stem: z.string(),
      score: z.number(),
      full: z.number(),
    }),
  ),
});
export type PersonAnalysis = z.infer<typeof personAnalysisSchema>;

// ---------- one homework ----------

export const homeworkQuestionSchema = questionStatsSchema.extend({
  stem: z.string(),
  optionTexts: z.array(z.string()),
  key: z.array(z.string()),
  knowledgePoints: z.array(ref),
});
export type HomeworkQuestion = z.infer<typeof homeworkQuestionSchema>;

export const homeworkStudentRowSchema = z.object({
  studentId: z.number(),
  name: z.string(),
  code: z.string(),
  classId: z.number(),
  className: z.string(),
  /** No final mark (缺考, 未扫描 or 阅卷中): never 0. */
  absent: z.boolean(),
  /** The marking module's student status: unscanned | absent | marking | complete. */
  status: studentStatusSchema,
  total: rate,
  band: gradeBandSchema.nullable(),
  right: z.number(),
  wrong: z.number(),
  blank: z.number(),
  classRank: z.number().nullable(),
  rank: z.number().nullable(),
  /** Per question, aligned with `questions`. */
  scores: z.array(z.number().nullable()),
  labels: z.array(z.array(z.string()).nullable()),
  /** The answer behind each mark (its image: /api/marking/answers/:id/image); null without one. */
  answerIds: z.array(z.number().nullable()),
  hasImage: z.array(z.boolean()),
});
export type HomeworkStudentRow = z.infer<typeof homeworkStudentRowSchema>;

export const homeworkAnalysisSchema = z.object({
  homework: z.object({
    id: z.number(),
    title: z.string(),
    subjectId: z.number(),
    subjectName: z.string(),
    startDate: z.string(),
    dueDate: z.string(),
    status: z.string(),
  }),
  classes: z.array(ref),
  classId: z.number().nullable(),
  ranksAllowed: z.boolean(),
  lines: rateLinesSchema,
  summary: homeworkSummarySchema,
  gradeSummary: homeworkSummarySchema,
  classSummaries: z.array(z.object({ classId: z.number(), name: z.string(), summary: homeworkSummarySchema })),
  questions: z.array(homeworkQuestionSchema),
  knowledgePoints: z.array(knowledgePointStatsSchema),
  students: z.array(homeworkStudentRowSchema),
});
export type HomeworkAnalysis = z.infer<typeof homeworkAnalysisSchema>;

// ---------- data centre ----------

export const subjectStatsSchema = z.object({
  schoolYear: ref,
  subjects: z.array(
    z.object({
      subjectId: z.number(),
      name: z.string(),
      homeworkCount: z.number(),
      participations: z.number(),
      scoreRate: rate,
      passRate: rate,
      excellentRate: rate,
      classes: z.array(z.object({ classId: z.number(), name: z.string(), scoreRate: rate })),
    }),
  ),
});
export type SubjectStats = z.infer<typeof subjectStatsSchema>;

export const correctScoreSchema = z.object({
  schoolYear: ref,
  rows: z.array(
    z.object({
      teacherId: z.number().nullable(),
      teacherName: z.string(),
      classId: z.number(),
      className: z.string(),
      subjectName: z.string(),
      /** 布置作业数 */
      assigned: z.number(),
      /** 应交 / 已扫描 answer sheets (students x homework). */
      expectedSheets: z.number(),
      scannedSheets: z.number(),
      /** 主观题批改: tasks marked, of which by the due date's end. */
      markedTasks: z.number(),
      onTimeTasks: z.number(),
      /** Median hours from the homework's due date to the marking. */
      medianHoursAfterDue: z.number().nullable(),
    }),
  ),
});
export type CorrectScore = z.infer<typeof correctScoreSchema>;

export const averageScoreSchema = z.object({
  schoolYear: ref,
  homework: z.object({ id: z.number(), title: z.string(), full: z.number() }).nullable(),
  classes: z.array(
    z.object({
      classId: z.number(),
      name: z.string(),
      participants: z.number(),
      enrolled: z.number(),
      mean: rate,
      scoreRate: rate,
      difference: rate,
      questionRates: z.array(rate),
    }),
  ),
  grade: z.object({ participants: z.number(), enrolled: z.number(), mean: rate, scoreRate: rate, questionRates: z.array(rate) }),
  questions: z.array(z.object({ no: z.number(), full: z.number(), type: z.string() })),
});
export type AverageScore = z.infer<typeof averageScoreSchema>;

// ---------- big data ----------

export const bigDataSchema = z.object({
  schoolName: z.string(),
  students: z.number(),
  homeworkFinished: z.number(),
  answersScanned: z.number(),
  questionScores: z.number(),
  subjects: z.array(z.object({ name: z.string(), homeworkCount: z.number(), scoreRate: rate })),
  weekly: z.array(z.object({ week: z.string(), homeworkCount: z.number(), scoreRate: rate })),
  gradeBands: z.array(z.object({ band: gradeBandSchema, count: z.number() })),
  weakPoints: z.array(z.object({ name: z.string(), subject: z.string(), mastery: z.number(), questionCount: z.number() })),
});
export type BigData = z.infer<typeof bigDataSchema>;

/** PUT /api/analysis/rank-settings: ranks and named lists for one school year (null = the school type's default). */
export const rankSettingSchema = z.object({ schoolYearId: idSchema, enabled: z.boolean().nullable() }).strict();
export type RankSetting = z.infer<typeof rankSettingSchema>;
