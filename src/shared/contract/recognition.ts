/**
 * Recognition (识别) of scanned answer sheets: what the engine reads off one scanned page against the
 * answer-sheet template it was printed with (answer-sheet.ts), and the problems that send a page to the
 * review queue instead of into scores. Produced by the server's recognition engine (and printed one JSON
 * line per image by `npm run recognize`), stored per scanned page, shown on the review page.
 *
 * Geometry: the engine fits a transform from template millimetres to scan pixels; `transform` maps
 * (xMm, yMm) to (a*xMm + c*yMm + e, b*xMm + d*yMm + f) in the pixels of the stored (un-rotated) scan.
 */
import { z } from 'zod';
import { sheetQrPayloadSchema } from './answer-sheet';

/** A reading's confidence, 0 (a guess) to 1 (certain). */
export const confidenceSchema = z.number().min(0).max(1);

/** Below this a bubble reading goes to review instead of into scores. */
export const LOW_CONFIDENCE = 0.6;

/**
 * Why a page (or one of its readings) needs a person. The engine raises the first group; the server,
 * which knows the homework and what was scanned before, raises the second.
 */
export const RECOGNITION_PROBLEM_KINDS = [
  // engine
  'fiducialsNotFound',
  'qrUnreadable',
  'blankPage',
  'multipleMarks',
  'lowConfidence',
  // server
  'otherHomework',
  'duplicatePage',
  'missingPage',
  'unknownStudent',
  /** "By QR": the QR names a homework of the school the batch's scanning teacher may not work on. */
  'outOfScope',
] as const;
export const recognitionProblemKindSchema = z.enum(RECOGNITION_PROBLEM_KINDS);
export type RecognitionProblemKind = z.infer<typeof recognitionProblemKindSchema>;

/** What the review page says of each problem. */
export const RECOGNITION_PROBLEM_LABELS: Record<RecognitionProblemKind, string> = {
  fiducialsNotFound: '定位点无法识别',
  qrUnreadable: '二维码无法识别',
  blankPage: '空白页',
  multipleMarks: '单选题填涂了多个选项',
  lowConfidence: '填涂不清晰',
  otherHomework: '不是本次作业的答题卡',
  duplicatePage: '重复扫描的答题卡',
  missingPage: '缺少答题卡页',
  unknownStudent: '无法确定学生',
  outOfScope: '二维码所属作业不在扫描老师的任教范围内',
};

export const recognitionProblemSchema = z.object({
  kind: recognitionProblemKindSchema,
  /** The question concerned (multipleMarks, lowConfidence). */
  questionNo: z.number().int().positive().optional(),
  /** A short English note for logs and audits (the UI shows the label). */
  detail: z.string().optional(),
});
export type RecognitionProblem = z.infer<typeof recognitionProblemSchema>;

export const affineTransformSchema = z.object({
  a: z.number(),
  b: z.number(),
  c: z.number(),
  d: z.number(),
  e: z.number(),
  f: z.number(),
});
export type AffineTransform = z.infer<typeof affineTransformSchema>;

/** One objective question as read: the darkness of each bubble (0 white .. 1 solid) and the marks. */
export const objectiveReadingSchema = z.object({
  questionNo: z.number().int().positive(),
  /** Option labels in template order, with their fill measure. */
  fills: z.array(z.object({ label: z.string(), fill: z.number().min(0).max(1) })),
  /** The labels read as marked, in template order; empty when nothing was marked. */
  marked: z.array(z.string()),
  confidence: confidenceSchema,
});
export type ObjectiveReading = z.infer<typeof objectiveReadingSchema>;

/** A subjective or blank region cut out of the page; the image itself travels beside the reading. */
export const regionReadingSchema = z.object({
  questionNo: z.number().int().positive(),
  kind: z.enum(['blank', 'subjective']),
  /** Pixel size of the cut-out image. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Share of dark pixels inside the region (0 = nothing written). */
  ink: z.number().min(0).max(1),
});
export type RegionReading = z.infer<typeof regionReadingSchema>;

/** An empty population of a page's bubbles on one measure: level and robust spread. */
const populationSchema = z.object({ level: z.number(), spread: z.number() });

/**
 * Where a page split its bubbles on one measure (ink share or fill): its threshold, and the highest
 * value read empty and the lowest read marked around it (null when the page had none).
 */
const calibrationSplitSchema = z.object({
  threshold: z.number(),
  emptyMax: z.number().nullable(),
  markMin: z.number().nullable(),
});

/**
 * One bubble's measures as the engine took them (bubble-reader.ts BubbleMeasure): fill, ink share,
 * specks, share of its ink in the inside's outer band. A tuple: a page may keep a few dozen of them.
 */
export const bubbleMeasureSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);

/**
 * What the pages of one student's sheet need to calibrate each other (sheet-calibration.ts): the
 * page's own populations of empty and marked bubbles (of those read whole), its marks' style, and the
 * bubble measures of each question it held back only because its own calibration was in doubt (no line,
 * streak, erasure or double mark), so another page of the sheet can decide it again without the image.
 * `released` records the questions a pooled calibration decided since (the page alone's confidence).
 */
export const pageCalibrationSchema = z.object({
  /** Bubbles read whole (the populations' source) and how many of them read marked. */
  bubbles: z.number().int().nonnegative(),
  marks: z.number().int().nonnegative(),
  emptyInk: populationSchema,
  emptyFill: populationSchema,
  emptySpecks: populationSchema,
  ink: calibrationSplitSchema,
  fill: calibrationSplitSchema,
  /** Typical fill of the page's marks. */
  markFill: z.number(),
  /** The marks by style: fills (ink and fill), ticks or crosses (ink, little fill), light pencil (fill, little ink). */
  style: z.object({
    fills: z.number().int().nonnegative(),
    ticks: z.number().int().nonnegative(),
    light: z.number().int().nonnegative(),
  }),
  held: z.array(
    z.object({
      questionNo: z.number().int().positive(),
      marked: z.array(z.string()),
      /** Per option, in template order (the labels are the reading's). */
      bubbles: z.array(bubbleMeasureSchema),
    }),
  ),
  released: z
    .array(z.object({ questionNo: z.number().int().positive(), alone: confidenceSchema, pooled: confidenceSchema }))
    .optional(),
});
export type PageCalibration = z.infer<typeof pageCalibrationSchema>;

/** Everything the engine read off one page. */
export const pageReadingSchema = z.object({
  /** The QR's payload, null when unreadable or not one of our sheets. */
  qr: sheetQrPayloadSchema.nullable(),
  qrText: z.string().nullable(),
  /** 180 when the page was fed upside down (the readings are already turned back). */
  rotation: z.union([z.literal(0), z.literal(180)]),
  /** Template millimetres to scan pixels; null when the fiducials were not found. */
  transform: affineTransformSchema.nullable(),
  /** Scale of the fit relative to the nominal dpi (1 = exact; printer or copier drift shows here). */
  scale: z.number().nullable(),
  /** Skew of the fit in degrees. */
  skewDeg: z.number().nullable(),
  objective: z.array(objectiveReadingSchema),
  regions: z.array(regionReadingSchema),
  /** The lowest confidence of the page's readings (QR, fiducials, bubbles). */
  confidence: confidenceSchema,
  problems: z.array(recognitionProblemSchema),
  /** Milliseconds the engine spent on the page. */
  elapsedMs: z.number().nonnegative(),
  /**
   * Set when the image was read as a phone photo (rectified from its fiducials): `rejected` says why a
   * photo could not be read (to be retaken at once, PHOTO_REJECTION_MESSAGES), `edgeMm` how sharp it was.
   */
  photo: z.object({ rejected: z.enum(['cutOff', 'blurred']).nullable(), edgeMm: z.number().nonnegative().nullable() }).optional(),
  /** Calibration of the page's marks, for the other pages of the same student's sheet; absent on a page not placed. */
  calibration: pageCalibrationSchema.optional(),
});
export type PageReading = z.infer<typeof pageReadingSchema>;

/** What the portal says when a phone photo of an answer sheet cannot be read, so it is retaken at once. */
export const PHOTO_REJECTION_MESSAGES: Record<'cutOff' | 'blurred', string> = {
  cutOff: '照片没有拍全答题卡：请把答题卡四角的黑色定位方块都拍进画面后重新拍摄',
  blurred: '照片模糊，无法识别：请拿稳手机、对准答题卡对焦后重新拍摄',
};

/** Per-page recognition states of a scanned page (scan_pages.status). */
export const SCAN_PAGE_STATUSES = ['stored', 'recognising', 'recognised', 'review', 'discarded', 'failed'] as const;
export type ScanPageStatus = (typeof SCAN_PAGE_STATUSES)[number];

/** Socket.io: recognition progress of a homework, to the sockets of its school. */
export const RECOGNITION_PROGRESS_EVENT = 'recognition.progress';
export const recognitionProgressSchema = z.object({
  homeworkId: z.number().int().positive(),
  /** Pages stored for the homework, recognised (done, any outcome), waiting, and open review items. */
  stored: z.number().int().nonnegative(),
  recognised: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  review: z.number().int().nonnegative(),
});
export type RecognitionProgress = z.infer<typeof recognitionProgressSchema>;
