/**
 * Review (识别异常处理) and marking (阅卷): the payloads of /api/marking/*. Every endpoint needs a login and
 * works inside the user's default school; another school's homework, page, task or item is a 404.
 * Scores per student per question (`StudentScore`) are the single source for analysis and re-practice.
 *
 * Endpoints (all answers in the `{ code, msg, data }` envelope unless marked "file"):
 * - GET  /api/marking/homework/:id                           -> MarkingOverview
 * - PUT  /api/marking/homework/:id/assignments  AssignmentsUpdate -> MarkingOverview   (owner only, 403 otherwise)
 * - GET  /api/marking/homework/:id/review?status=open|resolved    -> ReviewItem[]
 * - POST /api/marking/review/:itemId/resolve    ReviewResolution  -> ReviewItem (re-runs scoring of the page)
 * - GET  /api/marking/pages/:imageId/reading                      -> PageReadingView
 * - POST /api/marking/homework/:id/questions/:no/next  { skip?: taskIds }  -> MarkingTask | null (null: nothing left for me)
 * - POST /api/marking/tasks/:taskId/score        ScoreSubmit       -> MarkingTask (the submitted one, with my score)
 * - GET  /api/marking/homework/:id/questions/:no/history          -> MarkingTask[] (my scored tasks, newest first, at most 200)
 * - GET  /api/marking/homework/:id/arbitration                    -> MarkingTask[] (owner only: answers whose marks disagree)
 * - GET  /api/marking/answers/:answerId/image                     -> file image/jpeg (the cut-out answer region)
 * - GET  /api/marking/homework/:id/scores                         -> ScoreTable
 * - GET  /api/marking/homework/:id/scores.xlsx                    -> file .xlsx (成绩表)
 * - PUT  /api/marking/homework/:id/students/:studentId/absence  AbsenceUpdate -> MarkingOverview (缺考 / undo)
 * - PUT  /api/marking/homework/:id/closure      ClosureUpdate     -> MarkingOverview (owner only: 结束阅卷 / reopen)
 * - POST /api/marking/review/bulk               ReviewBulkResolution -> ReviewBulkResult (per-item results; dryRun
 *                                                 only counts; marks a discard would lose must be confirmed)
 * Socket.io: RECOGNITION_PROGRESS_EVENT (recognition.ts) and MARKING_PROGRESS_EVENT, to the school's sockets.
 */
import { z } from 'zod';
import { formIdSchema, idSchema, text } from './primitives';
import {
  objectiveReadingSchema,
  pageReadingSchema,
  type RecognitionProblemKind,
  recognitionProblemKindSchema,
} from './recognition';

/** Ids are PostgreSQL integers: a larger number is a bad request, never a database error. */
const id = idSchema;
const formId = formIdSchema;

export const MARKING_MESSAGES = {
  notOwner: '只有作业的布置者或学校管理员可以分配阅卷任务',
  notAssigned: '您没有这道题的阅卷任务',
  scoreOutOfRange: '分数超出本题分值范围',
  taskTaken: '该答卷已被其他老师领取，请阅下一份',
  alreadyResolved: '该异常已处理',
  bulkNotApplicable: '该异常不能这样处理',
  bulkMarksLost: (count: number) => `处理将丢弃 ${count} 个已给的分数，请重新确认`,
  unknownQuestion: '题号不存在',
  notSubjective: '该题不是主观题',
  notArbiter: '只有作业的布置者或学校管理员可以仲裁',
  sameMarker: '同一份答卷的多次评阅须由不同老师完成',
  taskGone: '该答卷已无需评阅，请阅下一份',
  unknownErrorCause: '错因不在本校的错因列表中',
  doubleMarkingNeedsTwo: '双评至少需要两位阅卷老师',
  toleranceTooLarge: '误差不能超过本题分值',
  notTeacher: '阅卷老师必须是本校教师',
  notInHomework: '该学生不在本次作业的班级中',
  alreadyScanned: '该学生的答题卡已扫描，不能记为缺考',
  notOwnerClose: '只有作业的布置者或学校管理员可以结束阅卷',
} as const;

// ---- students of a homework ------------------------------------------------------------------------

/**
 * Where a student of the homework stands: never scanned (未扫描), marked absent (缺考), scanned and still
 * being marked (阅卷中), or every question scored (已阅完). Unscanned and absent students have no scores:
 * they are not 0 and stay out of totals and averages.
 */
export const studentStatusSchema = z.enum(['unscanned', 'absent', 'marking', 'complete']);
export type StudentStatus = z.infer<typeof studentStatusSchema>;
export const STUDENT_STATUS_LABELS: Record<StudentStatus, string> = {
  unscanned: '未扫描',
  absent: '缺考',
  marking: '阅卷中',
  complete: '已阅完',
};
/** Does a student with this status have scores to count (totals, averages)? */
export const hasScores = (status: StudentStatus) => status === 'marking' || status === 'complete';

export const homeworkStudentSchema = z.object({ studentId: id, name: z.string(), code: z.string() });
export type HomeworkStudent = z.infer<typeof homeworkStudentSchema>;
export const homeworkStudentsSummarySchema = z.object({
  /** Students of the homework's classes (and any other whose sheet was counted). */
  total: z.number().int().nonnegative(),
  scanned: z.number().int().nonnegative(),
  /** Students not yet scanned, by name (the absent ones are listed apart). */
  unscanned: z.array(homeworkStudentSchema),
  absent: z.array(homeworkStudentSchema),
});
export type HomeworkStudentsSummary = z.infer<typeof homeworkStudentsSummarySchema>;

export const absenceParamsSchema = z.object({ id: formId, studentId: formId });
export const absenceUpdateSchema = z.object({ absent: z.boolean() });
export type AbsenceUpdate = z.infer<typeof absenceUpdateSchema>;
export const closureUpdateSchema = z.object({ closed: z.boolean() });
export type ClosureUpdate = z.infer<typeof closureUpdateSchema>;

// ---- overview and assignments --------------------------------------------------------------------

export const markingQuestionSchema = z.object({
  questionNo: z.number().int().positive(),
  type: z.enum(['single', 'multiple', 'judge', 'blank', 'subjective']),
  score: z.number().nonnegative(),
  /** Objective questions are scored automatically; only blank and subjective ones are marked by hand. */
  manual: z.boolean(),
  /** Answers to mark (one per student whose sheet was recognised) and how many are fully marked. */
  total: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  /** Answers waiting for the owner's arbitration. */
  arbitration: z.number().int().nonnegative(),
  /** Answers flagged as problem papers (问题卷). */
  problems: z.number().int().nonnegative(),
  doubleMarking: z.boolean(),
  /** Double marking: the largest difference between two marks accepted without a third. */
  tolerance: z.number().nonnegative(),
  /** The teachers the owner assigned (empty: the owner marks it). Always sent by the server. */
  assigned: z.array(id).optional(),
  /** 按学科分配: the subject teachers who mark the answers of their classes scanned with the flag. */
  bySubject: z.array(id).optional(),
  markers: z.array(z.object({ userId: id, name: z.string(), marked: z.number().int().nonnegative() })),
});
export type MarkingQuestion = z.infer<typeof markingQuestionSchema>;

export const markingOverviewSchema = z.object({
  homeworkId: id,
  title: z.string(),
  status: z.enum(['draft', 'assigned', 'scanning', 'marking', 'finished']),
  /** Whether the caller leads the homework (its owner 布置者, or an admin of the school): may assign, arbitrate, close. */
  isOwner: z.boolean(),
  /** Multiple choice: the share of the score a correct, incomplete answer earns (default DEFAULT_PARTIAL_CREDIT); always sent by the server. */
  partialCredit: z.number().min(0).max(1).optional(),
  questions: z.array(markingQuestionSchema),
  recognition: z.object({
    stored: z.number().int().nonnegative(),
    recognised: z.number().int().nonnegative(),
    pending: z.number().int().nonnegative(),
    review: z.number().int().nonnegative(),
  }),
  /** Teachers of the school the owner may assign (id and name). */
  teachers: z.array(z.object({ userId: id, name: z.string() })),
  /** Who is still missing (by name) and who is absent; always sent by the server. */
  students: homeworkStudentsSummarySchema.optional(),
  /** The owner declared the homework finished (结束阅卷); always sent by the server. */
  closed: z.boolean().optional(),
});
export type MarkingOverview = z.infer<typeof markingOverviewSchema>;

export const assignmentsUpdateSchema = z.object({
  questions: z
    .array(
      z.object({
        questionNo: id,
        userIds: z.array(id).max(50),
        doubleMarking: z.boolean(),
        tolerance: z.number().min(0, '误差不能小于 0').max(1000),
      }),
    )
    .min(1, '请至少设置一道题')
    .max(200, '一次最多设置 200 道题'),
  /** Multiple choice partial credit for this homework (0..1); absent keeps the current one. */
  partialCredit: z.number().min(0, '部分得分比例不能小于 0').max(1, '部分得分比例不能大于 1').optional(),
});
export type AssignmentsUpdate = z.infer<typeof assignmentsUpdateSchema>;

export const homeworkParamsSchema = z.object({ id: formId });
export const questionParamsSchema = z.object({ id: formId, no: formId });
export const taskParamsSchema = z.object({ taskId: formId });
export const itemParamsSchema = z.object({ itemId: formId });
export const answerParamsSchema = z.object({ answerId: formId });

// ---- review queue ----------------------------------------------------------------------------------

export const reviewItemSchema = z.object({
  id,
  homeworkId: id,
  kind: recognitionProblemKindSchema,
  status: z.enum(['open', 'resolved']),
  /** The scanned page concerned (its image: GET /api/scan/pages/:imageId/image). */
  imageId: z.string(),
  /** Page of the sheet (from the QR), when known. */
  page: z.number().int().positive().nullable(),
  questionNo: z.number().int().positive().nullable(),
  student: z.object({ id, name: z.string(), code: z.string() }).nullable(),
  /** The objective reading concerned, for a bubble problem. */
  reading: objectiveReadingSchema.nullable(),
  /** How it was resolved (Chinese, for the list), null while open. */
  resolution: z.string().nullable(),
  createdAt: z.string(),
  /**
   * The resolutions the server will take for this item now (empty once resolved); e.g. 确认 of a sheet of
   * another homework only when that homework is one of this school's. Always sent by the server.
   */
  actions: z.array(z.enum(['assignStudent', 'setAnswer', 'accept', 'discard'])).optional(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;
export const reviewListQuerySchema = z.object({ status: z.enum(['open', 'resolved']).default('open') });

export const reviewResolutionSchema = z.discriminatedUnion('action', [
  /** The page belongs to this student (unknown student, unreadable QR). */
  z.object({ action: z.literal('assignStudent'), studentId: id, page: id.optional() }),
  /** The teacher read the bubbles: these labels are the student's answer (empty: left blank). */
  z.object({
    action: z.literal('setAnswer'),
    questionNo: id,
    labels: z.array(text().min(1).max(2)).max(8),
  }),
  /** Keep the reading as it is (a low-confidence mark the teacher confirms). */
  z.object({ action: z.literal('accept') }),
  /** The page is not part of this homework's scores (blank, another homework, a duplicate). */
  z.object({ action: z.literal('discard') }),
]);
export type ReviewResolution = z.infer<typeof reviewResolutionSchema>;

/** The resolutions each kind of problem takes: the server enforces them, the review page offers them. */
export const REVIEW_ACTIONS_BY_KIND: Record<RecognitionProblemKind, readonly ReviewResolution['action'][]> = {
  fiducialsNotFound: ['assignStudent', 'discard'],
  qrUnreadable: ['assignStudent', 'discard'],
  unknownStudent: ['assignStudent', 'discard'],
  blankPage: ['accept', 'discard'],
  multipleMarks: ['setAnswer', 'accept'],
  lowConfidence: ['setAnswer', 'accept'],
  otherHomework: ['accept', 'discard'],
  duplicatePage: ['accept', 'discard'],
  missingPage: ['accept'],
  outOfScope: ['accept', 'discard'],
};

/** At most this many items per bulk request; the review page sends larger selections in parts. */
export const REVIEW_BULK_MAX = 200;

/**
 * 批量确认 / 批量作废: one action for several items. Each item is resolved on its own (its own transaction),
 * and the answer reports each. `dryRun` changes nothing and says what would happen; `marksLost` is the
 * number of marks given by markers the teacher agreed to lose (pages leaving the scores), and the server
 * refuses (409, nothing changed) when applying would lose more than that.
 */
export const reviewBulkResolutionSchema = z.object({
  itemIds: z.array(id).min(1, '请选择要处理的异常').max(REVIEW_BULK_MAX, `一次最多处理 ${REVIEW_BULK_MAX} 项`),
  action: z.enum(['accept', 'discard']),
  dryRun: z.boolean().default(false),
  marksLost: z.number().int().nonnegative().max(1_000_000).default(0),
});
export type ReviewBulkResolution = z.input<typeof reviewBulkResolutionSchema>;

export const reviewBulkResultSchema = z.object({
  /** Marks given by markers that applying takes (took) out of the scores. */
  marksLost: z.number().int().nonnegative(),
  results: z.array(
    z.object({
      itemId: id,
      /** ready: would apply (dry run); resolved: applied; skipped: the action does not apply; failed: refused. */
      outcome: z.enum(['ready', 'resolved', 'skipped', 'failed']),
      /** Why skipped or failed, or how it was resolved (Chinese). */
      message: z.string().nullable(),
    }),
  ),
});
export type ReviewBulkResult = z.infer<typeof reviewBulkResultSchema>;

export const pageReadingViewSchema = z.object({
  imageId: z.string(),
  homeworkId: id.nullable(),
  status: z.string(),
  reading: pageReadingSchema.nullable(),
});
export type PageReadingView = z.infer<typeof pageReadingViewSchema>;

// ---- marking -----------------------------------------------------------------------------------------

/** A tick, cross or comment placed on the answer image; x and y are fractions of its width and height. */
export const annotationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tick'), x: z.number().min(0).max(1), y: z.number().min(0).max(1) }),
  z.object({ kind: z.literal('cross'), x: z.number().min(0).max(1), y: z.number().min(0).max(1) }),
  z.object({
    kind: z.literal('comment'),
    x: z.number().min(0).max(1),
    y: z.number().min(0).max(1),
    text: text().trim().min(1, '请输入批注内容').max(200, '批注不能超过 200 个字'),
  }),
]);
export type Annotation = z.infer<typeof annotationSchema>;

/** One answer to mark: the answer region of one student for one question, in one marking round. */
/** The question a student of a personalised set answered (stem and analysis are rich text). */
export const ownQuestionSchema = z.object({
  questionId: id,
  type: z.string(),
  stem: z.string(),
  options: z.array(z.string()),
  answer: z.array(z.string()),
  analysis: z.string(),
  score: z.number().nonnegative(),
});
export type OwnQuestion = z.infer<typeof ownQuestionSchema>;

export const markingTaskSchema = z.object({
  taskId: id,
  homeworkId: id,
  questionNo: z.number().int().positive(),
  /** The answer (student × question); its image: GET /api/marking/answers/:answerId/image. */
  answerId: id,
  maxScore: z.number().nonnegative(),
  /** 1 and 2 are the two markings of double marking, 3 the third marking, 4 the owner's arbitration. */
  round: z.number().int().min(1).max(4),
  /** My score once submitted. */
  score: z.number().nonnegative().nullable(),
  annotations: z.array(annotationSchema),
  problem: z.boolean(),
  /** 错因: why the answer lost marks (one of the school's error causes), given with the score. */
  errorCause: z.string().nullable().optional(),
  /** Only shown to the owner during arbitration: the earlier marks. */
  otherScores: z.array(z.number()).optional(),
  /**
   * A personalised re-practice set (each student their own paper): this student's own question at this
   * number, with its key; `maxScore` is then its full score. Absent for an ordinary homework.
   */
  ownQuestion: ownQuestionSchema.optional(),
  /** Progress of the question for me: answers I marked and answers left for me. */
  progress: z.object({ mine: z.number().int().nonnegative(), left: z.number().int().nonnegative() }),
});
export type MarkingTask = z.infer<typeof markingTaskSchema>;

export const nextTaskRequestSchema = z.object({ skip: z.array(id).max(500).optional() });

export const scoreSubmitSchema = z.object({
  score: z.number().min(0, '分数不能小于 0').max(1000),
  annotations: z.array(annotationSchema).max(50).default([]),
  /** 问题卷: the answer cannot be marked (illegible, wrong region); goes to the owner. */
  problem: z.boolean().default(false),
  /** 错因, one of the school's list; kept only when the score is below full. */
  errorCause: text().trim().min(1, '错因不能为空').max(10, '错因不能超过 10 个字').nullable().optional(),
});
export type ScoreSubmit = z.input<typeof scoreSubmitSchema>;

/** Quick-score buttons of /write: 0, the full score and its halves/quarters (the keypad does the rest). */
export function quickScores(maxScore: number): number[] {
  const steps = [0, maxScore / 4, maxScore / 2, (3 * maxScore) / 4, maxScore].map((s) => Math.round(s * 2) / 2);
  return [...new Set(steps)];
}

/** Partial credit for a multiple-choice question: all correct full marks, a correct subset this share, any wrong 0. */
export const DEFAULT_PARTIAL_CREDIT = 0.5;

// ---- scores --------------------------------------------------------------------------------------------

export const studentScoreSchema = z.object({
  studentId: id,
  name: z.string(),
  code: z.string(),
  className: z.string(),
  /** Per question number: the score, or null while not yet scored. */
  scores: z.record(z.string(), z.number().nullable()),
  /** Objective answers as read (question number -> labels), for the report. */
  answers: z.record(z.string(), z.array(z.string())),
  /** Sum of the scores; null for a student without scores (未扫描 / 缺考), never 0. */
  total: z.number().nullable(),
  /** Every question scored and no open review item for this student. */
  complete: z.boolean(),
  status: studentStatusSchema,
});
export type StudentScore = z.infer<typeof studentScoreSchema>;

export const scoreTableSchema = z.object({
  homeworkId: id,
  title: z.string(),
  questions: z.array(z.object({ questionNo: z.number().int().positive(), type: z.string(), score: z.number() })),
  students: z.array(studentScoreSchema),
});
export type ScoreTable = z.infer<typeof scoreTableSchema>;

// ---- realtime -------------------------------------------------------------------------------------------

export const MARKING_PROGRESS_EVENT = 'marking.progress';
export const markingProgressSchema = z.object({
  homeworkId: id,
  questionNo: z.number().int().positive(),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type MarkingProgress = z.infer<typeof markingProgressSchema>;
