/**
 * Answer sheets (答题卡): what a teacher asks to print (the spec) and the geometry the printer draws and
 * the recognition engine reads back (the template). The template is versioned: a scanned sheet is read
 * with the template version it was printed with, so change the shape only under a new `version`.
 * All geometry is in millimetres, origin at the top-left corner of the page, y growing downwards.
 */
import { z } from 'zod';

export const answerSheetQuestionTypeSchema = z.enum(['single', 'multiple', 'judge', 'blank', 'subjective']);
export type AnswerSheetQuestionType = z.infer<typeof answerSheetQuestionTypeSchema>;

export const objectiveQuestionTypeSchema = z.enum(['single', 'multiple', 'judge']);
export type ObjectiveQuestionType = z.infer<typeof objectiveQuestionTypeSchema>;

export const answerSheetPaperSizeSchema = z.enum(['A4', 'A3']);
export type AnswerSheetPaperSize = z.infer<typeof answerSheetPaperSizeSchema>;

/** Options a choice question gets when the spec does not say. */
export const DEFAULT_OPTION_COUNT = 4;
/** Most options a choice question may have (A–H). */
export const MAX_OPTION_COUNT = 8;
/**
 * A judge question (判断题) always has two bubbles, labelled T (正确) and F (错误): Latin letters keep the
 * bubble as small as the A–D ones and read the same on every printer font.
 */
export const JUDGE_OPTION_LABELS = ['T', 'F'] as const;

export const answerSheetQuestionSchema = z.object({
  /** The question number printed on the sheet (题号). */
  no: z.number().int().positive(),
  type: answerSheetQuestionTypeSchema,
  score: z.number().nonnegative(),
  /** Choice questions only; default {@link DEFAULT_OPTION_COUNT}. Ignored for judge questions. */
  optionCount: z.number().int().min(2).max(MAX_OPTION_COUNT).optional(),
  /** Blank questions only: how many blanks to write in; default 1. */
  blankCount: z.number().int().min(1).max(12).optional(),
  /** Subjective questions only: writing lines; by default derived from the score. */
  lines: z.number().int().min(1).max(60).optional(),
});
export type AnswerSheetQuestion = z.infer<typeof answerSheetQuestionSchema>;

export const answerSheetSpecSchema = z
  .object({
    homeworkId: z.number().int().positive(),
    title: z.string().trim().min(1).max(60),
    subjectName: z.string().trim().min(1).max(20),
    paperSize: answerSheetPaperSizeSchema,
    className: z.string().trim().max(30).optional(),
    questions: z.array(answerSheetQuestionSchema).min(1).max(200),
  })
  .refine((spec) => new Set(spec.questions.map((q) => q.no)).size === spec.questions.length, {
    message: 'Question numbers must be unique',
    path: ['questions'],
  });
export type AnswerSheetSpec = z.infer<typeof answerSheetSpecSchema>;

export const mmRectSchema = z.object({
  xMm: z.number(),
  yMm: z.number(),
  wMm: z.number().positive(),
  hMm: z.number().positive(),
});
export type MmRect = z.infer<typeof mmRectSchema>;

export const fiducialCornerSchema = z.enum(['tl', 'tr', 'bl', 'br']);
export type FiducialCorner = z.infer<typeof fiducialCornerSchema>;

/** A solid black square; x and y are its centre. */
export const fiducialSchema = z.object({
  corner: fiducialCornerSchema,
  xMm: z.number(),
  yMm: z.number(),
  sizeMm: z.number().positive(),
});
export type Fiducial = z.infer<typeof fiducialSchema>;

/** The QR symbol without its quiet zone; x and y are its top-left corner. The layout keeps a quiet zone free. */
export const sheetQrPlacementSchema = z.object({
  xMm: z.number(),
  yMm: z.number(),
  sizeMm: z.number().positive(),
});
export type SheetQrPlacement = z.infer<typeof sheetQrPlacementSchema>;

/** One bubble; the printed outline is the ellipse inscribed in the rectangle. */
export const bubbleSchema = mmRectSchema.extend({ label: z.string().min(1) });
export type Bubble = z.infer<typeof bubbleSchema>;

export const objectiveQuestionLayoutSchema = z.object({
  questionNo: z.number().int().positive(),
  type: objectiveQuestionTypeSchema,
  options: z.array(bubbleSchema).min(2),
});
export type ObjectiveQuestionLayout = z.infer<typeof objectiveQuestionLayoutSchema>;

export const answerRegionSchema = mmRectSchema.extend({
  questionNo: z.number().int().positive(),
  kind: z.enum(['blank', 'subjective']),
});
export type AnswerRegion = z.infer<typeof answerRegionSchema>;

export const answerSheetPageSchema = z.object({
  /** 1-based, printed in the page's QR. */
  page: z.number().int().positive(),
  fiducials: z.array(fiducialSchema).length(4),
  qr: sheetQrPlacementSchema,
  /** Title, subject, class, instructions and the student block; drawing only, not read back. */
  header: mmRectSchema,
  studentBlock: z.object({ nameBox: mmRectSchema, codeBox: mmRectSchema }),
  /** Frames of the groups of (up to) five objective questions; each holds its questions' bubbles. */
  objectiveBlocks: z.array(mmRectSchema),
  objective: z.array(objectiveQuestionLayoutSchema),
  regions: z.array(answerRegionSchema),
});
export type AnswerSheetPage = z.infer<typeof answerSheetPageSchema>;

export const answerSheetTemplateSchema = z.object({
  version: z.literal(1),
  paperSize: answerSheetPaperSizeSchema,
  pageWidthMm: z.number().positive(),
  pageHeightMm: z.number().positive(),
  homeworkId: z.number().int().positive(),
  pages: z.array(answerSheetPageSchema).min(1),
});
export type AnswerSheetTemplate = z.infer<typeof answerSheetTemplateSchema>;

/** What a sheet's QR says: which homework, which page of the sheet and, on a per-student sheet, whose. */
export const sheetQrPayloadSchema = z.object({
  homeworkId: z.number().int().positive(),
  page: z.number().int().positive(),
  studentCode: z.string().min(1).max(32).optional(),
});
export type SheetQrPayload = z.infer<typeof sheetQrPayloadSchema>;
