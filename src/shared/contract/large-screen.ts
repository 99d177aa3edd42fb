/**
 * The wall-mounted large screen (大屏): pairing a screen, the screens a school manages, and the snapshot
 * a display draws. Shared by the server's screen routes, the wall display and the portal's screens page.
 *
 * Endpoints (all answers in the `{ code, msg, data }` envelope):
 * - POST   /api/screens/pairings                 (no login)         -> ScreenPairing
 * - POST   /api/screens/pairings/collect         PairingCollect     -> PairingCollectResult
 * - GET    /api/screens                          (admin, 年级主任)   -> Screen[]
 * - GET    /api/screens/options                  (admin, 年级主任)   -> ScreenOptions (what the caller may pair)
 * - POST   /api/screens                          ScreenCreate       -> Screen     (pairs the screen showing `code`)
 * - PUT    /api/screens/:id                      ScreenUpdate       -> Screen     (rename, re-scope, panels, names)
 * - DELETE /api/screens/:id                                         -> { id }     (revokes: its token stops at once)
 * - GET    /api/largescreen/snapshot             display token or teacher's token -> LargeScreenSnapshot
 * A display token (`Authorization: Bearer dsp_…`) is accepted by the snapshot only; every other
 * endpoint answers it 401.
 * Socket.io: the display's socket joins its screen's rooms; SCREEN_REVOKED_EVENT tells it it was revoked
 * (it is then disconnected), SCREEN_UPDATED_EVENT that its scope or panels changed (it reconnects);
 * ANSWER_SHEETS_PRINTED_EVENT (a homework's answer sheets were printed) goes to the homework's rooms.
 */
import { z } from 'zod';
import { gradeBandSchema } from './analysis';
import { idSchema, text } from './primitives';

/** How long a pairing code may be typed in the portal. */
export const PAIRING_TTL_MS = 10 * 60_000;
export const PAIRING_CODE_LENGTH = 6;
/** Display tokens start with this, so the snapshot route tells them from teachers' tokens. */
export const DISPLAY_TOKEN_PREFIX = 'dsp_';
export const SCREEN_NAME_MAX = 30;
/** The window of the pace behind the estimated finish. */
export const PACE_WINDOW_MINUTES = 15;

export const SCREEN_REVOKED_EVENT = 'screen.revoked';
export const SCREEN_UPDATED_EVENT = 'screen.updated';

/**
 * Socket.io event sent to the homework's rooms when its answer sheets were printed (the PDF was
 * downloaded or opened): the large screen's first pipeline stage (已印) moves with it.
 */
export const ANSWER_SHEETS_PRINTED_EVENT = 'homework.sheetsPrinted';
export const answerSheetsPrintedEventSchema = z.object({
  homeworkId: idSchema,
  /** The class the sheets were printed for; null for a generic sheet of no class. */
  classId: idSchema.nullable(),
  mode: z.enum(['student', 'class']),
  /** Sheets in the PDF: the class's students, or 1 (the 通用答题卡 master). */
  sheets: z.number().int().nonnegative(),
  printedAt: z.string(),
});
export type AnswerSheetsPrintedEvent = z.infer<typeof answerSheetsPrintedEventSchema>;

export const SCREEN_PANELS = ['pipeline', 'marking', 'results'] as const;
export const screenPanelSchema = z.enum(SCREEN_PANELS);
export type ScreenPanel = z.infer<typeof screenPanelSchema>;
export const PANEL_LABELS: Record<ScreenPanel, string> = {
  pipeline: '今日作业进度',
  marking: '阅卷进度',
  results: '作业成绩',
};

export const SCOPE_KINDS = ['school', 'schoolYear', 'class'] as const;
export const scopeKindSchema = z.enum(SCOPE_KINDS);
export type ScopeKind = z.infer<typeof scopeKindSchema>;
export const SCOPE_KIND_LABELS: Record<ScopeKind, string> = { school: '全校', schoolYear: '学年', class: '班级' };

export const SCREEN_MESSAGES = {
  codeInvalid: '配对码无效或已过期，请查看大屏上的最新配对码',
  namesNotAllowed: '该学年不允许在大屏上公开学生姓名和排名（义务教育阶段默认不公开）',
  scopeMissing: '请选择大屏显示的学年或班级',
  panelsMissing: '请至少选择一个显示内容',
} as const;

// ---- pairing ---------------------------------------------------------------------------------------

export const screenPairingSchema = z.object({
  code: z.string(),
  /** Only the screen that asked holds it; it collects the display token with it. */
  secret: z.string(),
  expiresAt: z.string(),
});
export type ScreenPairing = z.infer<typeof screenPairingSchema>;

export const pairingCollectSchema = z.object({ secret: text().min(16).max(100) });

export const pairingCollectResultSchema = z.object({
  status: z.enum(['waiting', 'expired', 'paired']),
  /** The display token, once, when paired. */
  token: z.string().nullable(),
});
export type PairingCollectResult = z.infer<typeof pairingCollectResultSchema>;

// ---- screens ---------------------------------------------------------------------------------------

const screenFields = {
  name: text().trim().min(1, '请输入大屏名称').max(SCREEN_NAME_MAX, `大屏名称最多 ${SCREEN_NAME_MAX} 个字`),
  scopeKind: scopeKindSchema,
  schoolYearId: idSchema.nullish(),
  classId: idSchema.nullish(),
  panels: z.array(screenPanelSchema).min(1, SCREEN_MESSAGES.panelsMissing).max(SCREEN_PANELS.length),
  showNames: z.boolean().default(false),
};

export const screenUpdateSchema = z.object(screenFields);
export type ScreenUpdate = z.input<typeof screenUpdateSchema>;

export const screenCreateSchema = z.object({
  code: text()
    .trim()
    .regex(/^\d{6}$/, '配对码是 6 位数字'),
  ...screenFields,
});
export type ScreenCreate = z.input<typeof screenCreateSchema>;

export const screenSchema = z.object({
  id: idSchema,
  name: z.string(),
  scopeKind: scopeKindSchema,
  schoolYearId: idSchema.nullable(),
  classId: idSchema.nullable(),
  /** e.g. 全校, 2026级, 2026级 1班 */
  scopeLabel: z.string(),
  panels: z.array(screenPanelSchema),
  showNames: z.boolean(),
  /** Whether the screen has collected its token (a pairing code typed but not yet picked up: false). */
  connected: z.boolean(),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
});
export type Screen = z.infer<typeof screenSchema>;
export const screenListSchema = z.array(screenSchema);

/** The scopes the caller may give a screen: the whole school (admins), school years and their classes. */
export const screenOptionsSchema = z.object({
  wholeSchool: z.boolean(),
  schoolYears: z.array(
    z.object({
      id: idSchema,
      name: z.string(),
      /** Names and ranks may be shown on a screen of this school year (not 小学/初中 by default). */
      namesAllowed: z.boolean(),
      classes: z.array(z.object({ id: idSchema, name: z.string() })),
    }),
  ),
});
export type ScreenOptions = z.infer<typeof screenOptionsSchema>;

// ---- the display's snapshot -------------------------------------------------------------------------

const count = z.number().int().nonnegative();
const rate = z.number().nullable();

export const pipelineClassSchema = z.object({
  classId: idSchema,
  name: z.string(),
  /** 已印: sheets of the class's latest per-student print (每位学生一张); null when none was printed. */
  printed: count.nullable(),
  /** 在册人数: the sheets expected (应交). */
  enrolled: count,
  /** Students with a counted sheet. */
  scanned: count,
  /** Open review items (异常卷) of the class's students. */
  review: count,
  /** Students with every question finally scored (已阅完). */
  complete: count,
  absent: count,
});
export type PipelineClass = z.infer<typeof pipelineClassSchema>;

export const questionProgressSchema = z.object({
  no: z.number().int().positive(),
  /** Answers not yet taken up, being marked (a round scored or claimed, no final score), finally scored, missing pages. */
  todo: count,
  inProgress: count,
  done: count,
  missing: count,
});
export type QuestionProgress = z.infer<typeof questionProgressSchema>;

export const pipelineHomeworkSchema = z.object({
  homeworkId: idSchema,
  title: z.string(),
  subjectName: z.string(),
  /** assigned | scanning | marking | finished (finished = 已发布 on the screen) */
  status: z.string(),
  /**
   * Printing beyond the per-class counts: generic masters printed (通用答题卡, copied by hand, so their
   * copies are unknown) and when anything was last printed.
   */
  printing: z.object({ genericSheets: count, lastPrintedAt: z.string().nullable() }),
  pages: z.object({ stored: count, recognised: count, pending: count }),
  review: count,
  arbitration: count,
  classes: z.array(pipelineClassSchema),
  /** Hand-marked questions. */
  questions: z.array(questionProgressSchema),
  teachers: z.array(z.object({ name: z.string(), done: count, inProgress: count })),
  /** Pace over the last PACE_WINDOW_MINUTES: students scanned and markings given. */
  pace: z.object({ scannedStudents: count, markings: count }),
  /** Estimated finish (ISO), null when the pace gives none; equal to generatedAt when nothing is left. */
  estimatedFinish: z.string().nullable(),
});
export type PipelineHomework = z.infer<typeof pipelineHomeworkSchema>;

export const resultsSchema = z.object({
  homework: z.object({ id: idSchema, title: z.string(), subjectName: z.string(), date: z.string(), full: z.number() }),
  grade: z.object({ scoreRate: rate, participants: count, enrolled: count }),
  classes: z.array(
    z.object({
      classId: idSchema,
      name: z.string(),
      participants: count,
      enrolled: count,
      scoreRate: rate,
      mean: rate,
      gradeBands: z.array(z.object({ band: gradeBandSchema, count })),
    }),
  ),
  /** The questions with the lowest 得分率 (at most 5). */
  mostMissed: z.array(z.object({ no: z.number().int().positive(), scoreRate: z.number(), n: count })),
  /** The homework behind the heat map: this one and the ones before it of its subject and school year. */
  heatmapHomeworkCount: count,
  /** 掌握度 per knowledge point (rows) and class (columns, in `classes` order); null = 数据不足 or no data. */
  heatmap: z.array(z.object({ name: z.string(), values: z.array(rate) })),
  /** The class whose 得分率 relative to the grade rose most since the previous homework of the subject. */
  mostImproved: z.object({ name: z.string(), previousTitle: z.string(), delta: z.number() }).nullable(),
  /** Only when the screen shows names and the school year allows it; otherwise null. */
  topStudents: z.array(z.object({ name: z.string(), className: z.string(), scoreRate: z.number() })).nullable(),
});
export type ScreenResults = z.infer<typeof resultsSchema>;

export const largeScreenSnapshotSchema = z.object({
  generatedAt: z.string(),
  schoolName: z.string(),
  /** The screen's name (a paired screen) or the teacher's view. */
  title: z.string(),
  scopeLabel: z.string(),
  panels: z.array(screenPanelSchema),
  showNames: z.boolean(),
  /** Homework ids the display follows: socket events of other homework only trigger a refresh when in scope. */
  pipeline: z.array(pipelineHomeworkSchema),
  results: resultsSchema.nullable(),
});
export type LargeScreenSnapshot = z.infer<typeof largeScreenSnapshotSchema>;
