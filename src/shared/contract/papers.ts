/**
 * Question bank (题库), papers (试卷), homework (作业) and students (学生): the payloads of /api/subjects,
 * /api/questions, /api/papers, /api/homework, /api/classes/:id/students and /api/students. Every endpoint
 * needs a login and works inside the user's default school. Imported by the client and the server alike.
 *
 * Endpoints (all answers in the `{ code, msg, data }` envelope unless marked "file"):
 * - GET    /api/subjects                                   -> Subject[]
 * - GET    /api/subjects/:id/chapters                      -> TreeNode[]  (章节, chapter type `booknode`)
 * - GET    /api/subjects/:id/knowledge-points              -> TreeNode[]  (知识点)
 * - GET    /api/questions?QuestionQuery                    -> Paged<Question>  (shared bank + the school's own)
 * - POST   /api/questions            QuestionInput         -> Question   (the school's own)
 * - PUT    /api/questions/:id        QuestionInput         -> Question   (the school's own only)
 * - DELETE /api/questions/:id                              -> null       (the school's own only)
 * - GET    /api/papers?PaperListQuery                      -> Paged<PaperSummary>, newest first (我的试卷)
 * - POST   /api/papers               PaperInput            -> PaperDetail
 * - GET    /api/papers/:id                                 -> PaperDetail
 * - PUT    /api/papers/:id           PaperInput            -> PaperDetail
 * - DELETE /api/papers/:id                                 -> null       (400 while homework uses it)
 * - POST   /api/papers/auto-compose  AutoComposeRequest    -> PaperDraft (not saved; POST /api/papers saves it)
 * - POST   /api/papers/:id/docx      DocxRequest           -> file .docx (Content-Disposition filename* = title)
 * - POST   /api/homework             HomeworkCreate        -> Homework
 * - GET    /api/homework?HomeworkListQuery                 -> Paged<Homework>, newest first
 * - GET    /api/homework/scannable                         -> Homework[] the caller may scan, newest first
 * - GET    /api/homework/:id                               -> Homework
 * - PATCH  /api/homework/:id/status  HomeworkStatusUpdate  -> Homework
 * - GET    /api/homework/:id/answer-sheet.pdf?AnswerSheetPdfQuery -> file .pdf (recorded as printed:
 *   answer_sheet_prints, and large-screen.ts's ANSWER_SHEETS_PRINTED_EVENT to the homework's rooms)
 * - GET    /api/homework/:id/answer-sheet/spec             -> AnswerSheetSpec (answer-sheet.ts; what the sheet prints)
 * - GET    /api/homework/:id/answer-sheet/template         -> AnswerSheetTemplate (answer-sheet.ts)
 * - GET    /api/classes/:id/students                       -> Student[] in code order
 * - POST   /api/classes/:id/students/import  multipart `file` (.xlsx) -> RosterImportResult
 * - GET    /api/students/roster-template                   -> file .xlsx (columns 姓名, 学号)
 */
import { z } from 'zod';
import { MAX_ID, dateSchema as calendarDateSchema, formIdSchema, idSchema, text } from './primitives';

// ---- labels ------------------------------------------------------------------------------------

export const QUESTION_TYPES = ['single', 'multiple', 'judge', 'blank', 'subjective'] as const;
export const questionTypeSchema = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof questionTypeSchema>;

export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  single: '单选题',
  multiple: '多选题',
  judge: '判断题',
  blank: '填空题',
  subjective: '解答题',
};

export const DIFFICULTIES = [1, 2, 3, 4, 5] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];
export const difficultySchema = z.coerce
  .number()
  .int('难度必须是 1 到 5 的整数')
  .min(1, '难度必须是 1 到 5 的整数')
  .max(5, '难度必须是 1 到 5 的整数');

export const DIFFICULTY_LABELS: Record<Difficulty, string> = {
  1: '容易',
  2: '较易',
  3: '中等',
  4: '较难',
  5: '困难',
};

export const HOMEWORK_STATUSES = ['draft', 'assigned', 'scanning', 'marking', 'finished'] as const;
export const homeworkStatusSchema = z.enum(HOMEWORK_STATUSES);
export type HomeworkStatus = z.infer<typeof homeworkStatusSchema>;

export const HOMEWORK_STATUS_LABELS: Record<HomeworkStatus, string> = {
  draft: '草稿',
  assigned: '已布置',
  scanning: '扫描中',
  marking: '阅卷中',
  finished: '已完成',
};

/** The printable paper sizes of a paper and its answer sheet. */
export const paperSizeSchema = z.enum(['A4', 'A3']);
export type PaperSize = z.infer<typeof paperSizeSchema>;

/** Choice questions have 2..8 options (A–H); the other types have none. */
export const MIN_CHOICE_OPTIONS = 2;
export const MAX_CHOICE_OPTIONS = 8;
/** The judge answer is one of these two words. */
export const JUDGE_ANSWERS = ['对', '错'] as const;
/** A paper with more questions than this cannot be downloaded as Word (题量过大，下载失败). */
export const MAX_DOCX_QUESTIONS = 200;
/** Largest page size any list endpoint accepts. */
export const MAX_PAGE_SIZE = 100;

// ---- shared shapes -----------------------------------------------------------------------------

const id = idSchema;
const queryId = formIdSchema;
/** YYYY-MM-DD (the spec's date format), a day that exists. */
export const dateSchema = calendarDateSchema;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(MAX_ID).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});

/** A page of a list: `list` holds at most `pageSize` items of `total`. */
export const pagedSchema = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number().int().nonnegative(), page: z.number().int(), pageSize: z.number().int() });
export type Paged<T> = { list: T[]; total: number; page: number; pageSize: number };

export const idNameSchema = z.object({ id: z.number().int(), name: z.string() });
export type IdName = z.infer<typeof idNameSchema>;

// ---- subjects and trees ------------------------------------------------------------------------

export const subjectSchema = idNameSchema;
export type Subject = z.infer<typeof subjectSchema>;
export const subjectListSchema = z.array(subjectSchema);

export interface TreeNode {
  id: number;
  name: string;
  children: TreeNode[];
}
/** A chapter (章节) or knowledge point (知识点) with its children, in display order. */
export const treeNodeSchema: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({ id: z.number().int(), name: z.string(), children: z.array(treeNodeSchema) }),
);
export const treeSchema = z.array(treeNodeSchema);

// ---- questions ---------------------------------------------------------------------------------

/**
 * A question. `stem`, `options` and `analysis` are rich text (HTML with images and formulas allowed).
 * `answer`: single ['B']; multiple ['A','C'] (ordered letters); judge ['对'] or ['错']; blank one entry
 * per blank (a blank in the stem is six or more underscores); subjective one reference answer.
 */
export const questionSchema = z.object({
  id,
  subjectId: id,
  type: questionTypeSchema,
  stem: z.string(),
  options: z.array(z.string()),
  answer: z.array(z.string()),
  analysis: z.string(),
  difficulty: z.number().int().min(1).max(5),
  chapterIds: z.array(z.number().int()),
  knowledgePointIds: z.array(z.number().int()),
  knowledgePointNames: z.array(z.string()),
  source: z.string(),
  /** How many saved papers use the question. */
  usageCount: z.number().int().nonnegative(),
  /** True for the shared bank (read-only for schools); false for the school's own questions. */
  shared: z.boolean(),
  /** GET /api/questions only: whether the caller may change or delete it (本校题: its author or an admin). */
  canEdit: z.boolean().optional(),
});
export type Question = z.infer<typeof questionSchema>;

export const questionQuerySchema = pageQuerySchema.extend({
  subjectId: queryId,
  chapterId: queryId.optional(),
  knowledgePointId: queryId.optional(),
  type: questionTypeSchema.optional(),
  difficulty: difficultySchema.optional(),
  keyword: text().trim().max(50).optional(),
  /** 'shared' = only the shared bank, 'own' = only the school's questions; default both. */
  scope: z.enum(['all', 'shared', 'own']).default('all'),
});
export type QuestionQuery = z.input<typeof questionQuerySchema>;
export const questionPageSchema = pagedSchema(questionSchema);

const LETTERS = 'ABCDEFGH';
const BLANK_PATTERN = /_{6,}/g;

/** Checks options and answer against the type; the messages are shown to the teacher as they are. */
export function questionShapeIssues(q: { type: QuestionType; stem: string; options: string[]; answer: string[] }): string[] {
  const issues: string[] = [];
  const choice = q.type === 'single' || q.type === 'multiple';
  if (choice && (q.options.length < MIN_CHOICE_OPTIONS || q.options.length > MAX_CHOICE_OPTIONS)) {
    issues.push(`选择题需要 ${MIN_CHOICE_OPTIONS} 到 ${MAX_CHOICE_OPTIONS} 个选项`);
  }
  if (!choice && q.options.length > 0) issues.push(`${QUESTION_TYPE_LABELS[q.type]}不能有选项`);
  const letters = LETTERS.slice(0, q.options.length);
  const joined = q.answer.join('');
  switch (q.type) {
    case 'single':
      if (q.answer.length !== 1 || joined.length !== 1 || !letters.includes(joined)) {
        issues.push('单选题答案必须是一个选项字母');
      }
      break;
    case 'multiple': {
      const ordered = q.answer.every((a, i) => a.length === 1 && letters.includes(a) && (i === 0 || a > (q.answer[i - 1] ?? '')));
      if (q.answer.length < 2 || !ordered) issues.push('多选题答案必须是至少两个按序排列的不同选项字母');
      break;
    }
    case 'judge':
      if (q.answer.length !== 1 || !(JUDGE_ANSWERS as readonly string[]).includes(joined)) {
        issues.push('判断题答案必须是“对”或“错”');
      }
      break;
    case 'blank': {
      const blanks = q.stem.match(BLANK_PATTERN)?.length ?? 0;
      if (blanks === 0) issues.push('填空题题干至少要有一个空（六个或以上下划线）');
      else if (blanks !== q.answer.length) issues.push(`填空题有 ${blanks} 个空，却有 ${q.answer.length} 个答案`);
      else if (q.answer.some((a) => a.trim() === '')) issues.push('填空题每个空都要有答案');
      break;
    }
    case 'subjective':
      if (q.answer.length !== 1 || joined.trim() === '') issues.push('解答题需要一条参考答案');
      break;
  }
  return issues;
}

/** POST/PUT /api/questions. */
export const questionInputSchema = z
  .object({
    subjectId: id,
    type: questionTypeSchema,
    stem: text().trim().min(1, '题干不能为空').max(20_000, '题干过长'),
    options: z.array(text().trim().min(1, '选项不能为空').max(5_000)).default([]),
    answer: z.array(text().trim().max(5_000)).min(1, '答案不能为空'),
    analysis: text().trim().max(20_000).default(''),
    difficulty: z.number().int('难度必须是 1 到 5 的整数').min(1, '难度必须是 1 到 5 的整数').max(5, '难度必须是 1 到 5 的整数'),
    chapterIds: z.array(id).max(20).default([]),
    knowledgePointIds: z.array(id).max(20).default([]),
    source: text().trim().max(100).default(''),
  })
  .superRefine((q, ctx) => {
    for (const message of questionShapeIssues(q)) ctx.addIssue({ code: 'custom', path: ['answer'], message });
  });
export type QuestionInput = z.input<typeof questionInputSchema>;

// ---- papers ------------------------------------------------------------------------------------

export const paperQuestionRefSchema = z.object({
  questionId: id,
  score: z.number().positive('分值必须大于 0').max(100, '分值不能超过 100'),
  /** The question's number on the paper (1-based, running across sections). */
  no: z.number().int().positive(),
});
export type PaperQuestionRef = z.infer<typeof paperQuestionRefSchema>;

export const paperSectionSchema = z.object({
  title: z.string(),
  questions: z.array(paperQuestionRefSchema),
});
export type PaperSection = z.infer<typeof paperSectionSchema>;

export const paperSchema = z.object({
  id,
  title: z.string(),
  subjectId: id,
  schoolYearId: id,
  sections: z.array(paperSectionSchema),
  totalScore: z.number(),
  paperSize: paperSizeSchema,
});
export type Paper = z.infer<typeof paperSchema>;

/** GET /api/papers/:id and the save answers: the paper plus each question in full. */
export const paperDetailSchema = paperSchema.extend({
  subjectName: z.string(),
  questionCount: z.number().int(),
  sections: z.array(
    z.object({
      title: z.string(),
      questions: z.array(paperQuestionRefSchema.extend({ question: questionSchema })),
    }),
  ),
});
export type PaperDetail = z.infer<typeof paperDetailSchema>;

/**
 * POST/PUT /api/papers. Numbers (`no`) are assigned by the server in order; a question appears at most
 * once; every question must be visible to the school and belong to the paper's subject.
 */
export const paperInputSchema = z.object({
  title: text().trim().min(1, '试卷标题不能为空').max(60, '试卷标题不能超过 60 个字'),
  subjectId: id,
  schoolYearId: id,
  paperSize: paperSizeSchema.default('A4'),
  sections: z
    .array(
      z.object({
        title: text().trim().min(1, '大题标题不能为空').max(40),
        questions: z
          .array(z.object({ questionId: id, score: paperQuestionRefSchema.shape.score }))
          .min(1, '每个大题至少要有一道题'),
      }),
    )
    .min(1, '试卷至少要有一个大题')
    .max(20),
});
export type PaperInput = z.input<typeof paperInputSchema>;

export const autoComposeRuleSchema = z.object({
  type: questionTypeSchema,
  difficulty: difficultySchema.optional(),
  count: z.number().int().min(1, '题数至少为 1').max(50, '每条规则最多 50 道题'),
  /** Score of each question of the rule. */
  score: paperQuestionRefSchema.shape.score,
});
export type AutoComposeRule = z.infer<typeof autoComposeRuleSchema>;

/**
 * POST /api/papers/auto-compose: picks `count` questions of each rule from the chapters (and their
 * sub-chapters) or the whole subject, one section per rule. 400 names the first rule the bank cannot fill.
 */
export const autoComposeRequestSchema = z.object({
  subjectId: id,
  schoolYearId: id,
  title: text().trim().min(1).max(60).optional(),
  paperSize: paperSizeSchema.default('A4'),
  chapterIds: z.array(id).max(50).optional(),
  /**
   * Without chapters: 'schoolYear' (default) draws from the textbooks of the school year's grade
   * (2026级 in its first year: 七年级上册 and 七年级下册), 'subject' from the whole subject.
   */
  range: z.enum(['schoolYear', 'subject']).default('schoolYear'),
  rules: z.array(autoComposeRuleSchema).min(1, '至少需要一条组卷规则').max(10),
});
export type AutoComposeRequest = z.input<typeof autoComposeRequestSchema>;

/** The auto-compose answer: a paper not yet saved (no id), and where its questions were drawn from. */
export const paperDraftSchema = paperDetailSchema.omit({ id: true }).extend({
  /** '七年级上册、七年级下册', '所选章节' or '数学全部章节'. */
  drawnFrom: z.string().optional(),
});

const GRADE_NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const GRADE_ALIASES: [RegExp, number][] = [
  [/初一|七年级/, 7],
  [/初二|八年级/, 8],
  [/初三|九年级/, 9],
];

/**
 * The grade (1..9) a school year is in on `today`: named in its name (2026级 (初一), 七年级), or else
 * counted from its entry year (2026级 is in 七年级 from September 2026 to August 2027). Null when
 * neither says (or the grade is beyond 九年级, whose textbooks are not named by grade).
 */
export function schoolYearGrade(name: string, today: Date): number | null {
  for (const [pattern, grade] of GRADE_ALIASES) if (pattern.test(name)) return grade;
  const entry = /(\d{4})\s*级/.exec(name);
  if (!entry) return null;
  // The school year starts in September (month index 8).
  const started = today.getMonth() >= 8 ? today.getFullYear() : today.getFullYear() - 1;
  const grade = 7 + started - Number(entry[1]);
  return grade >= 1 && grade <= 9 ? grade : null;
}

/** '七年级': the prefix of a grade's textbook chapters (七年级上册, 七年级下册). */
export function gradeTextbookPrefix(grade: number): string {
  return `${GRADE_NUMERALS[grade - 1] ?? ''}年级`;
}
export type PaperDraft = z.infer<typeof paperDraftSchema>;

/**
 * GET /api/papers (我的试卷): the papers of the school the caller may read, newest first. `scope` 'mine'
 * (default) lists the caller's own papers, 'school' every paper of the school; `keyword` searches titles.
 */
export const paperListQuerySchema = pageQuerySchema.extend({
  scope: z.enum(['mine', 'school']).default('mine'),
  keyword: z.string().trim().max(60, '关键词不能超过 60 个字').optional(),
  subjectId: queryId.optional(),
  schoolYearId: queryId.optional(),
});
export type PaperListQuery = z.input<typeof paperListQuerySchema>;

/** One row of 我的试卷. */
export const paperSummarySchema = z.object({
  id,
  title: z.string(),
  subject: subjectSchema,
  schoolYear: idNameSchema,
  paperSize: paperSizeSchema,
  totalScore: z.number(),
  questionCount: z.number().int(),
  /** Who saved it (null when that account is gone) and whether that is the caller. */
  createdBy: idNameSchema.nullable(),
  mine: z.boolean(),
  /** How many homework assignments use it; a paper in use cannot be deleted. */
  homeworkCount: z.number().int().nonnegative(),
  createdAt: z.string(),
  /** When it was shared to 校本资料 (null: not shared), and the chapter it is filed under there. */
  sharedAt: z.string().nullable(),
  sharedChapter: idNameSchema.nullable(),
});
export type PaperSummary = z.infer<typeof paperSummarySchema>;
export const paperSummaryPageSchema = pagedSchema(paperSummarySchema);

/** POST /api/papers/:id/docx. */
export const docxRequestSchema = z.object({ withAnswers: z.boolean().optional() });
export type DocxRequest = z.infer<typeof docxRequestSchema>;

// ---- homework ----------------------------------------------------------------------------------

export const homeworkSchema = z.object({
  id,
  paperId: id,
  title: z.string(),
  subject: subjectSchema,
  schoolYearId: id,
  classes: z.array(idNameSchema),
  startDate: dateSchema,
  dueDate: dateSchema,
  status: homeworkStatusSchema,
  paperSize: paperSizeSchema,
  totalScore: z.number(),
  questionCount: z.number().int(),
  createdAt: z.string(),
});
export type Homework = z.infer<typeof homeworkSchema>;
export const homeworkPageSchema = pagedSchema(homeworkSchema);

/** POST /api/homework: assign a paper to classes of the school. Title defaults to the paper's. */
export const homeworkCreateSchema = z
  .object({
    paperId: id,
    title: text().trim().min(1).max(60).optional(),
    classIds: z.array(id).min(1, '请至少选择一个班级').max(50),
    startDate: dateSchema,
    dueDate: dateSchema,
    status: z.enum(['draft', 'assigned']).default('assigned'),
  })
  .refine((h) => h.dueDate >= h.startDate, { message: '截止日期不能早于开始日期', path: ['dueDate'] });
export type HomeworkCreate = z.input<typeof homeworkCreateSchema>;

/**
 * GET /api/homework/assignable-classes: the classes of the paper's school year the caller may assign the
 * paper to (the permission module's homework.assign for the paper's subject), not archived, in class order.
 */
export const assignableClassesQuerySchema = z.object({ paperId: queryId });
export type AssignableClassesQuery = z.input<typeof assignableClassesQuerySchema>;

/**
 * GET /api/homework/scannable: the homework whose answer sheets the caller may scan (the permission
 * module's homework.work, the rule POST /api/scan/batches applies), not drafts, newest first, at most
 * SCANNABLE_HOMEWORK_LIMIT: what the scan page's homework list offers.
 */
export const SCANNABLE_HOMEWORK_LIMIT = 100;
export const scannableHomeworkSchema = z.array(homeworkSchema);

export const homeworkListQuerySchema = pageQuerySchema.extend({
  subjectId: queryId.optional(),
  /** Homework of papers for this school year (the one chosen in the top bar). */
  schoolYearId: queryId.optional(),
  classId: queryId.optional(),
  status: homeworkStatusSchema.optional(),
  /** Homework whose start date is on or after `from` and on or before `to`. */
  from: dateSchema.optional(),
  to: dateSchema.optional(),
});
export type HomeworkListQuery = z.input<typeof homeworkListQuerySchema>;

/** PATCH /api/homework/:id/status. */
export const homeworkStatusUpdateSchema = z.object({ status: homeworkStatusSchema });
export type HomeworkStatusUpdate = z.infer<typeof homeworkStatusUpdateSchema>;

/** GET /api/homework/:id/answer-sheet.pdf: one sheet per student of `classId`, or one generic sheet. */
export const answerSheetPdfQuerySchema = z
  .object({
    mode: z.enum(['student', 'class']).default('class'),
    classId: queryId.optional(),
  })
  .refine((q) => q.mode === 'class' || q.classId !== undefined, { message: '按学生打印时必须选择班级', path: ['classId'] });
export type AnswerSheetPdfQuery = z.input<typeof answerSheetPdfQuerySchema>;

// ---- students ----------------------------------------------------------------------------------

/** Student codes (学号) are 4..20 digits, unique within a school; printed on barcodes and answer sheets. */
export const STUDENT_CODE_PATTERN = /^\d{4,20}$/;

export const studentSchema = z.object({
  id,
  classId: id,
  name: z.string(),
  code: z.string(),
  /** Archived (离校/归档): kept with their history, left off rosters and answer sheets. */
  archived: z.boolean().optional(),
});
export type Student = z.infer<typeof studentSchema>;
export const studentListSchema = z.array(studentSchema);

/**
 * Students of a class (学生花名册):
 * - GET  /api/classes/:id/students?archived=true        -> Student[] (archived ones too)
 * - POST /api/classes/:id/students        StudentInput   -> Student (409: the code is taken in the school)
 * - PUT  /api/students/:id                StudentUpdate  -> Student (edit, or move to another class)
 * - POST /api/students/:id/archive        { archived }   -> Student
 * - GET  /api/classes/:id/students/export                -> .xlsx in the roster format (re-importable)
 * Admins, the school year's director, the class teacher and the class's subject teachers (of both
 * classes when moving).
 */
export const studentInputSchema = z.object({
  name: text().trim().min(1, '姓名不能为空').max(20, '姓名不能超过 20 个字'),
  code: z.string().trim().regex(STUDENT_CODE_PATTERN, '学号必须是 4 到 20 位数字'),
});
export type StudentInput = z.infer<typeof studentInputSchema>;
export const studentUpdateSchema = studentInputSchema.extend({ classId: id });
export type StudentUpdate = z.infer<typeof studentUpdateSchema>;
export const studentArchiveSchema = z.object({ archived: z.boolean() });
export const studentListQuerySchema = z.object({ archived: z.enum(['true', 'false']).optional() });

/** The roster columns, in template order. */
export const ROSTER_COLUMNS = { name: '姓名', code: '学号' } as const;

/** One bad row of a roster file: its row number in the sheet (header is row 1) and why. */
export const rosterRowErrorSchema = z.object({ row: z.number().int().positive(), reason: z.string() });
export type RosterRowError = z.infer<typeof rosterRowErrorSchema>;

/**
 * The import answer. A row whose code already belongs to a student of this class renames that student;
 * a code of another class of the school is an error. Any bad row means nothing was written: `imported` is 0 and `errors` lists every
 * bad row. A file that is not a readable .xlsx or lacks the 姓名/学号 header is a 400 instead.
 */
export const rosterImportResultSchema = z.object({
  imported: z.number().int().nonnegative(),
  errors: z.array(rosterRowErrorSchema),
});
export type RosterImportResult = z.infer<typeof rosterImportResultSchema>;
