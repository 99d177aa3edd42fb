/**
 * Recognises one scanned page, start to end, in the calling thread: decode, corner fiducials, upright
 * or turned (from where the QR is), the QR itself, the template (asked of the caller with what the QR
 * says), the transform, the bubbles and the region cut-outs. Pure apart from the resolver it is given:
 * no database, no files. The worker pool runs this; tests and the CLI may call it directly.
 */
import type { AnswerSheetPage, AnswerSheetTemplate, SheetQrPayload } from '../../../src/shared/contract/answer-sheet';
import {
  LOW_CONFIDENCE,
  type AffineTransform,
  type PageReading,
  type RecognitionProblem,
} from '../../../src/shared/contract/recognition';
import { decodeSheetQr } from '../../../src/shared/lib/answer-sheet-qr';
import { SHEET_GEOMETRY } from '../../../src/shared/lib/answer-sheet-layout';
import { affineShape, applyAffine, fitAffine, fitResidual, fitSimilarity, type PointPair } from './affine-fit';
import { outlineContrast, readObjective } from './bubble-reader';
import { findFiducials, type FoundFiducial } from './fiducial-finder';
import { cropRgba, darkShare, histogram, percentile, type GreyImage, decodeGrey } from './grey-image';
import { registeredPlacement } from './outline-registration';
import { mayBePhoto, rectifyPhoto } from './photo-rectifier';
import { readQr } from './qr-reader';
import { qrFindersDrawn, qrStreaksCleared, qrTonerOnly, type ClearedQr } from './qr-repair';
import { cutRegion, encodeRegion } from './region-cutter';
import { pageCalibration } from './sheet-calibration';
import { median } from './sample-stats';
import { DENSITY_RADIUS_MM, densityImage, isOneBitImage } from './one-bit-marks';
import type { RecognitionResult, RegionImage, TemplateResolver } from './recognition-engine';
import { TURNED_CORNER, guessFrame, templateFrame, type PageFrame } from './sheet-frame';

/**
 * Resolution of the region cut-outs, at most the scan's own. Enough for marking handwriting on screen
 * (online-marking systems scan at 150-200 dpi for it); 300 dpi would more than double the pixels to
 * warp and encode, the larger part of a page's cost.
 */
export const DEFAULT_REGION_DPI = 200;

export type RecognizeOptions = { regionDpi?: number };

/** Below this share of dark pixels (and without fiducials) a page is blank paper. */
export const BLANK_DARK_SHARE = 0.003;
/** Fit residual (RMS per fiducial) up to which the transform is fully trusted, and beyond which it is rejected. */
export const RESIDUAL_GOOD_MM = 0.3;
export const RESIDUAL_MAX_MM = 1.0;
/** A fit on exactly three points cannot be checked: it is never more certain than this. */
const UNCHECKED_FIT_CONFIDENCE = 0.5;
/** The points of a fit must spread over this share of the page's width and height. */
const MIN_SPAN = 0.6;
/** Limits of a plausible fit: scale against the nominal resolution, axis stretch, shear. */
const SCALE_LIMITS = [0.85, 1.15] as const;
const ASPECT_LIMITS = [0.9, 1.1] as const;
const MAX_SHEAR_DEG = 3;
/** Grey levels by which one orientation's outlines must stand out to overrule upright. */
const ORIENTATION_MARGIN = 40;
/** Room around the QR symbol's crop: its quiet zone plus a little for the fit. */
const QR_CROP_MARGIN_MM = SHEET_GEOMETRY.qrQuietMm + 2;
/**
 * Reads of the QR crop: as is, harder, harder at another size, harder at about two pixels a module (a
 * dithered 1-bit scan's dot pattern reads only averaged that far). Only a page that resists pays for more.
 */
const QR_ATTEMPTS = [0, 1, 2, 3];
/** Modules a side a sheet's QR symbol may have (versions 1-5: its text's length decides), likeliest first. */
const SYMBOL_MODULES = [25, 29, 21, 33, 37];
/** Without fiducials, the QR is looked for in a wider crop around its nominal place. */
const QR_LOOSE_MARGIN_MM = 14;

type Orientation = 0 | 180;

type Located = { rotation: Orientation; transform: AffineTransform };

function pairsFor(frame: PageFrame, found: readonly FoundFiducial[], rotation: Orientation): PointPair[] {
  return frame.fiducials.flatMap((f) => {
    const corner = rotation === 0 ? f.corner : TURNED_CORNER[f.corner];
    const hit = found.find((g) => g.corner === corner);
    return hit ? [{ from: { x: f.xMm, y: f.yMm }, to: { x: hit.x, y: hit.y } }] : [];
  });
}

/** The pixel rectangle covering a template rectangle (grown by `marginMm`) under a transform. */
function pixelBox(t: AffineTransform, rect: { xMm: number; yMm: number; wMm: number; hMm: number }, marginMm: number) {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [rect.xMm - marginMm, rect.yMm - marginMm],
    [rect.xMm + rect.wMm + marginMm, rect.yMm - marginMm],
    [rect.xMm - marginMm, rect.yMm + rect.hMm + marginMm],
    [rect.xMm + rect.wMm + marginMm, rect.yMm + rect.hMm + marginMm],
  ] as const) {
    const p = applyAffine(t, x, y);
    xs.push(p.x);
    ys.push(p.y);
  }
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** The pixel rectangle of the frame's QR symbol (grown by `marginMm`) under a transform. */
function qrBox(t: AffineTransform, frame: PageFrame, marginMm: number) {
  const { qr } = frame;
  return pixelBox(t, { xMm: qr.xMm, yMm: qr.yMm, wMm: qr.sizeMm, hMm: qr.sizeMm }, marginMm);
}

/** Share of dark pixels where the QR symbol would be under a transform: high where it really is. */
function qrDensity(img: GreyImage, t: AffineTransform, frame: PageFrame): number {
  const box = qrBox(t, frame, -1);
  const hist = histogram(img, box.x0, box.y0, box.x1, box.y1, 3);
  return darkShare(hist, percentile(histogram(img, box.x0 - 60, box.y0 - 60, box.x1 + 60, box.y1 + 60, 6), 0.9) * 0.5);
}

/** The QR read in the crop a transform puts it in, its corners in image pixels. */
async function readQrAt(img: GreyImage, t: AffineTransform, frame: PageFrame, marginMm: number, attempt: number) {
  const { qr } = frame;
  const box = qrBox(t, frame, marginMm);
  // About four pixels per module is plenty for the reader, a quarter of the work of full resolution,
  // and averaging pixels takes out the sensor noise that makes the reader miss a full-resolution
  // symbol. Later attempts try harder, then at other sizes.
  const modulePx = (Math.hypot(t.a, t.b) * qr.sizeMm) / 29;
  const preferred = Math.max(1, Math.round(modulePx / 4));
  const factor =
    attempt < 2 ? preferred : attempt === 2 ? (preferred === 1 ? 2 : preferred - 1) : Math.max(2, Math.round(modulePx / 2));
  const read = await readQr(cropRgba(img, box.x0, box.y0, box.x1, box.y1, factor), attempt > 0);
  if (!read) return null;
  const left = Math.max(0, Math.floor(box.x0));
  const top = Math.max(0, Math.floor(box.y0));
  const at = (p: { x: number; y: number }) => ({ x: left + p.x * factor, y: top + p.y * factor });
  const corners: PointPair[] = [
    { from: { x: qr.xMm, y: qr.yMm }, to: at(read.topLeft) },
    { from: { x: qr.xMm + qr.sizeMm, y: qr.yMm }, to: at(read.topRight) },
    { from: { x: qr.xMm, y: qr.yMm + qr.sizeMm }, to: at(read.bottomLeft) },
    { from: { x: qr.xMm + qr.sizeMm, y: qr.yMm + qr.sizeMm }, to: at(read.bottomRight) },
  ];
  return { text: read.text, corners };
}

type QrOutcome = {
  text: string | null;
  rotation: Orientation | null;
  /** The symbol's corners: template millimetres (of the frame it was read with) to image pixels. */
  corners: PointPair[];
};

/**
 * Which way up the page is, from its QR: read where an upright page has it, then where a turned page
 * has it (denser place first: a QR is half dark, the opposite corner of a sheet mostly paper). When no
 * QR can be read at all, the density alone decides, if it clearly can.
 */
async function readQrAndOrientation(
  img: GreyImage,
  frame: PageFrame,
  fits: Record<Orientation, AffineTransform>,
): Promise<QrOutcome> {
  const density = { 0: qrDensity(img, fits[0], frame), 180: qrDensity(img, fits[180], frame) };
  const order: Orientation[] = density[180] > density[0] ? [180, 0] : [0, 180];
  for (const attempt of QR_ATTEMPTS) {
    for (const rotation of order) {
      const read = await readQrAt(img, fits[rotation], frame, QR_CROP_MARGIN_MM, attempt);
      if (read) return { text: read.text, rotation, corners: read.corners };
    }
  }
  // A scanner streak through the symbol, then a pencil line across it: read again with it redrawn
  // (qr-repair.ts), at every size the later attempts try (held-out streakVariety-441: a redrawn symbol
  // read at one size only). Last, where a streak hid part of a finder pattern whole, the patterns are
  // drawn in, for each size the symbol may have.
  const box = (rotation: Orientation) => qrBox(fits[rotation], frame, QR_CROP_MARGIN_MM);
  const cleared = new Map<Orientation, ClearedQr | null>();
  const clearedAt = (rotation: Orientation) => {
    if (!cleared.has(rotation)) cleared.set(rotation, qrStreaksCleared(img, box(rotation)));
    return cleared.get(rotation) ?? null;
  };
  const repairs: ((rotation: Orientation) => GreyImage | null)[] = [
    (rotation) => clearedAt(rotation)?.image ?? null,
    (rotation) => qrTonerOnly(img, box(rotation)),
    ...SYMBOL_MODULES.map((modules) => (rotation: Orientation) => {
      const streaked = clearedAt(rotation);
      return streaked && qrFindersDrawn(streaked, { t: fits[rotation], qr: frame.qr, modules });
    }),
  ];
  for (const repair of repairs) {
    for (const rotation of order) {
      const repaired = repair(rotation);
      if (!repaired) continue;
      for (const attempt of QR_ATTEMPTS.slice(1)) {
        const read = await readQrAt(repaired, fits[rotation], frame, QR_CROP_MARGIN_MM, attempt);
        if (read) return { text: read.text, rotation, corners: read.corners };
      }
    }
  }
  const [first, second] = order as [Orientation, Orientation];
  const clear = density[first] > 0.2 && density[first] > 2 * density[second];
  return { text: null, rotation: clear ? first : null, corners: [] };
}

/** Without fiducials: the QR in loose crops around its nominal places, so the page can still be filed. */
async function readQrLoosely(img: GreyImage, frame: PageFrame): Promise<QrOutcome> {
  const kx = img.width / frame.widthMm;
  const ky = img.height / frame.heightMm;
  const upright: AffineTransform = { a: kx, b: 0, c: 0, d: ky, e: 0, f: 0 };
  const turned: AffineTransform = { a: -kx, b: 0, c: 0, d: -ky, e: img.width, f: img.height };
  for (const [rotation, t] of [
    [0, upright],
    [180, turned],
  ] as const) {
    const read = await readQrAt(img, t, frame, QR_LOOSE_MARGIN_MM, 1);
    if (read) return { text: read.text, rotation, corners: read.corners };
  }
  return { text: null, rotation: null, corners: [] };
}

function pickPage(template: AnswerSheetTemplate | null, qr: SheetQrPayload | null): AnswerSheetPage | null {
  if (!template) return null;
  if (qr) return qr.homeworkId === template.homeworkId ? (template.pages.find((p) => p.page === qr.page) ?? null) : null;
  // Without a QR only a one-page sheet can be read: which page of a longer one it is, nothing says.
  return template.pages.length === 1 ? (template.pages[0] ?? null) : null;
}

type Fit = { transform: AffineTransform; scale: number; skewDeg: number; confidence: number; note: string } | { failure: string };

/** A first guess of the transform for locating the QR: affine on three or four fiducials, similarity on two. */
function roughFit(frame: PageFrame, found: readonly FoundFiducial[], rotation: Orientation): AffineTransform | null {
  const pairs = pairsFor(frame, found, rotation);
  if (pairs.length >= 3) return fitAffine(pairs);
  return pairs.length === 2 ? fitSimilarity(pairs[0] as PointPair, pairs[1] as PointPair) : null;
}

/** Whether the template points of a fit spread over most of the page: a fit extrapolated far is not trusted. */
function spansPage(pairs: readonly PointPair[], frame: PageFrame): boolean {
  const xs = pairs.map((p) => p.from.x);
  const ys = pairs.map((p) => p.from.y);
  return (
    Math.max(...xs) - Math.min(...xs) >= MIN_SPAN * frame.widthMm &&
    Math.max(...ys) - Math.min(...ys) >= MIN_SPAN * frame.heightMm
  );
}

/**
 * The transform of a page: least squares on the four fiducial centres. With fiducials missing (cut off
 * by a skewed feed, covered by a staple) the QR symbol's corners stand in for them, so the fit stays
 * over-determined and checked, as long as the points still span the page; three fiducials and no QR
 * fit exactly, unchecked, and the page's confidence says so.
 */
function fitPage(
  img: GreyImage,
  frame: PageFrame,
  found: readonly FoundFiducial[],
  rotation: Orientation,
  qrCorners: PointPair[],
): Fit {
  const fiducialPairs = pairsFor(frame, found, rotation);
  const pairs = fiducialPairs.length === 4 ? fiducialPairs : [...fiducialPairs, ...qrCorners];
  if (fiducialPairs.length < 2 || pairs.length < 3 || !spansPage(pairs, frame)) {
    return { failure: `found ${found.length} of 4 fiducials${qrCorners.length > 0 ? ' and the QR' : ''}` };
  }
  const transform = fitAffine(pairs);
  if (!transform) return { failure: 'fiducials on a line' };
  const shape = affineShape(transform, rotation === 180);
  const nominal = (img.width / frame.widthMm + img.height / frame.heightMm) / 2;
  const scale = shape.pxPerMm / nominal;
  const residualMm = fitResidual(transform, pairs) / shape.pxPerMm;
  if (scale < SCALE_LIMITS[0] || scale > SCALE_LIMITS[1]) return { failure: `scale ${scale.toFixed(3)} out of range` };
  if (shape.aspect < ASPECT_LIMITS[0] || shape.aspect > ASPECT_LIMITS[1]) return { failure: `aspect ${shape.aspect.toFixed(3)}` };
  if (Math.abs(shape.shearDeg) > MAX_SHEAR_DEG) return { failure: `shear ${shape.shearDeg.toFixed(2)} deg` };
  if (residualMm > RESIDUAL_MAX_MM) return { failure: `fit residual ${residualMm.toFixed(2)} mm` };
  let confidence = Math.min(1, (RESIDUAL_MAX_MM - residualMm) / (RESIDUAL_MAX_MM - RESIDUAL_GOOD_MM));
  if (pairs.length === 3) confidence = Math.min(confidence, UNCHECKED_FIT_CONFIDENCE);
  const note =
    pairs.length === 3
      ? 'three fiducials and no QR: nothing to check the fit against'
      : `fiducials off the template by ${residualMm.toFixed(2)} mm`;
  return { transform, scale, skewDeg: shape.skewDeg, confidence, note };
}

/**
 * Which way up a page is when its QR could not tell: the way under which the template's printed
 * outlines (bubbles, region frames) fall on dark lines. Upright when neither way clearly does.
 */
function orientationFromOutlines(
  img: GreyImage,
  frame: PageFrame,
  found: readonly FoundFiducial[],
  page: AnswerSheetPage,
): Orientation {
  const contrast = ([0, 180] as const).map((rotation) => {
    const fit = fitPage(img, frame, found, rotation, []);
    return 'failure' in fit ? -Infinity : outlineContrast(img, fit.transform, page.objective, page.regions);
  }) as [number, number];
  return contrast[1] > contrast[0] + ORIENTATION_MARGIN ? 180 : 0;
}

function isBlank(img: GreyImage): boolean {
  const hist = histogram(img, 0, 0, img.width, img.height, 4);
  return darkShare(hist, percentile(hist, 0.9) * 0.5) < BLANK_DARK_SHARE;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Grey level under which the border of a large image is a desk around a photographed page, not a scan's
 * paper; and it must lie this many levels under the page's paper (the image's 90th percentile): a scan
 * of grey paper or of low contrast (paper 185-200) has that paper right to its edge.
 */
const PHOTO_BORDER_GREY = 200;
const PHOTO_BORDER_UNDER_PAPER = 15;

/** The median grey of the image's outermost strips (1 % of each side), sampled. */
function borderGrey(img: GreyImage): number {
  const values: number[] = [];
  const bandX = Math.max(1, Math.floor(img.width / 100));
  const bandY = Math.max(1, Math.floor(img.height / 100));
  for (let x = 0; x < img.width; x += 16) {
    for (let y = 0; y < bandY; y += 4) values.push(img.data[y * img.width + x]!, img.data[(img.height - 1 - y) * img.width + x]!);
  }
  for (let y = 0; y < img.height; y += 16) {
    for (let x = 0; x < bandX; x += 4) values.push(img.data[y * img.width + x]!, img.data[y * img.width + img.width - 1 - x]!);
  }
  values.sort((p, q) => p - q);
  return values[Math.floor(values.length / 2)] ?? 255;
}

/**
 * Reads a page. Rejects only when the image cannot be decoded at all. A large image with a desk
 * showing around the page is taken as a phone photo (even when the scan path could place it):
 * rectified to a scan (photo-rectifier.ts) and read again; a photo too blurred or cut off is
 * rejected at once, with the reason in `reading.photo`.
 */
export async function recognizePage(
  image: Buffer,
  resolveTemplate: TemplateResolver,
  options: RecognizeOptions = {},
): Promise<RecognitionResult> {
  const started = performance.now();
  const img = await decodeGrey(image);
  if (Math.min(img.width, img.height) < MIN_PAGE_SIDE_PX) return tooSmall(img, started);
  const first = await recognizeGrey(img, resolveTemplate, options);
  // A photo is always read through its homography, even when an affine fit of its corners passed: a
  // tilt the four corners barely show still moves the bubbles between them.
  const border = mayBePhoto(img) ? borderGrey(img) : 255;
  const paper = border < PHOTO_BORDER_GREY ? percentile(histogram(img, 0, 0, img.width, img.height, 8), 0.9) : 0;
  const photoLike = border < PHOTO_BORDER_GREY && border < paper - PHOTO_BORDER_UNDER_PAPER;
  if (first.blank || !photoLike) {
    first.result.reading.elapsedMs = round(performance.now() - started, 1);
    return first.result;
  }
  const photo = rectifyPhoto(img);
  let result: RecognitionResult;
  if (photo.kind === 'rectified') {
    result = (await recognizeGrey(photo.img, resolveTemplate, options, true)).result;
    result.reading.photo = { rejected: null, edgeMm: round(photo.edgeMm, 3) };
  } else {
    result = first.result;
    const { reading } = result;
    // Nothing of a rejected photo counts: the page is not placed, whatever the scan path made of it.
    reading.transform = null;
    reading.objective = [];
    reading.regions = [];
    delete reading.calibration;
    result.regions = [];
    reading.confidence = 0;
    reading.problems = [
      ...reading.problems.filter((p) => p.kind !== 'fiducialsNotFound' && p.questionNo === undefined),
      { kind: 'fiducialsNotFound', detail: `photo ${photo.reason}: ${photo.detail}` },
    ];
    reading.photo = { rejected: photo.reason, edgeMm: null };
  }
  result.reading.elapsedMs = round(performance.now() - started, 1);
  return result;
}

/**
 * The shorter side of an image below which it is no scanned page (an A4 page at 50 dpi, about the
 * least its QR can be read at, is 413 pixels wide; a thumbnail or an icon is less): reported as such
 * rather than read as a blank page.
 */
export const MIN_PAGE_SIDE_PX = 400;

function tooSmall(img: GreyImage, started: number): RecognitionResult {
  const reading: PageReading = {
    qr: null,
    qrText: null,
    rotation: 0,
    transform: null,
    scale: null,
    skewDeg: null,
    objective: [],
    regions: [],
    confidence: 0,
    problems: [
      {
        kind: 'fiducialsNotFound',
        detail: `image ${img.width} x ${img.height} px: too small for a scanned page (under ${MIN_PAGE_SIDE_PX} px a side)`,
      },
    ],
    elapsedMs: round(performance.now() - started, 1),
  };
  return { reading, regions: [] };
}

type GreyOutcome = { result: RecognitionResult; blank: boolean };

/**
 * Reads a decoded page. A rectified photo's questions are each placed on their own printed outlines
 * (outline-registration.ts): a curled page is not where one homography puts it.
 */
async function recognizeGrey(
  img: GreyImage,
  resolveTemplate: TemplateResolver,
  options: RecognizeOptions,
  rectifiedPhoto = false,
): Promise<GreyOutcome> {
  const guessed = guessFrame(img.width, img.height);
  const found = findFiducials(img, guessed);
  const problems: RecognitionProblem[] = [];
  const confidences: number[] = [];

  let qrOutcome: QrOutcome;
  let located: Located | null = null;
  if (found.length >= 2) {
    const up = roughFit(guessed, found, 0);
    const turned = roughFit(guessed, found, 180);
    qrOutcome =
      up && turned
        ? await readQrAndOrientation(img, guessed, { 0: up, 180: turned })
        : { text: null, rotation: null, corners: [] };
  } else {
    qrOutcome = await readQrLoosely(img, guessed);
  }
  const qr = qrOutcome.text === null ? null : decodeSheetQr(qrOutcome.text);

  const blank = found.length < 2 && qrOutcome.text === null && isBlank(img);
  const template = await resolveTemplate(qr);
  const page = pickPage(template, qr);
  const frame = template && page ? templateFrame(template, page) : guessed;
  const rotation: Orientation = qrOutcome.rotation ?? (page ? orientationFromOutlines(img, frame, found, page) : 0);

  let scale: number | null = null;
  let skewDeg: number | null = null;
  let fitConfidence = 0;
  if (blank) {
    problems.push({ kind: 'blankPage' });
  } else {
    if (qrOutcome.text === null) problems.push({ kind: 'qrUnreadable' });
    else if (!qr) problems.push({ kind: 'qrUnreadable', detail: `not a sheet QR: ${qrOutcome.text.slice(0, 60)}` });
    else if (template && qr.homeworkId === template.homeworkId && !page) {
      problems.push({ kind: 'qrUnreadable', detail: `page ${qr.page} is not in the template` });
    }
    confidences.push(qr ? 1 : 0);
    // The QR corners were measured against the guessed frame; a template page's QR sits at the same place.
    const fit = fitPage(img, frame, found, rotation, qrOutcome.corners);
    if ('failure' in fit) {
      problems.push({ kind: 'fiducialsNotFound', detail: fit.failure });
      confidences.push(0);
    } else {
      located = { rotation, transform: fit.transform };
      scale = round(fit.scale, 4);
      skewDeg = round(fit.skewDeg, 3);
      confidences.push(fit.confidence);
      fitConfidence = fit.confidence;
      if (fit.confidence < LOW_CONFIDENCE) problems.push({ kind: 'lowConfidence', detail: fit.note });
    }
  }

  const reading: PageReading = {
    qr,
    qrText: qrOutcome.text,
    rotation,
    transform: located ? roundTransform(located.transform) : null,
    scale,
    skewDeg,
    objective: [],
    regions: [],
    confidence: 0,
    problems,
    elapsedMs: 0,
  };
  const regions: RegionImage[] = [];
  if (located && page && template) {
    // The printer's black from whole squares: a sliver at the scan's edge may show more paper than toner.
    const whole = found.filter((f) => !f.cut);
    const black = whole.length > 0 ? median(whole.map((f) => f.black)) : Math.min(...found.map((f) => f.black));
    const place = rectifiedPhoto ? registeredPlacement(img, located.transform, page.objective).place : located.transform;
    // A 1-bit scan is read on its black density, its marks split by their counts of black pixels.
    const oneBit = isOneBitImage(img);
    const placedPxPerMm = Math.sqrt(
      Math.abs(located.transform.a * located.transform.d - located.transform.b * located.transform.c),
    );
    const objective = oneBit
      ? readObjective(densityImage(img, DENSITY_RADIUS_MM * placedPxPerMm), place, page.objective, black, { raw: img })
      : readObjective(img, place, page.objective, black, null, rectifiedPhoto);
    reading.objective = objective.readings;
    problems.push(...objective.problems);
    if (fitConfidence < LOW_CONFIDENCE) {
      // A doubt about where the page is could change every bubble's reading: every question is held
      // back (the server holds back questions by their own problems and confidences).
      for (const r of reading.objective) {
        r.confidence = Math.min(r.confidence, round(fitConfidence, 3));
        if (!problems.some((p) => p.kind === 'lowConfidence' && p.questionNo === r.questionNo)) {
          problems.push({ kind: 'lowConfidence', questionNo: r.questionNo, detail: 'page placement uncertain' });
        }
      }
    }
    // What the other pages of the student's sheet calibrate with (sheet-calibration.ts); a page whose
    // placement is in doubt has nothing a calibration could settle.
    if (fitConfidence >= LOW_CONFIDENCE) reading.calibration = pageCalibration(objective, page.objective);
    confidences.push(...objective.readings.map((r) => r.confidence));
    const scanPxPerMm = (img.width / template.pageWidthMm + img.height / template.pageHeightMm) / 2;
    const pxPerMm = Math.min(scanPxPerMm, (options.regionDpi ?? DEFAULT_REGION_DPI) / 25.4);
    const cuts = page.regions.map((region) => cutRegion(img, located.transform, region, pxPerMm));
    reading.regions = cuts.map((c) => c.reading);
    const jpegs = await Promise.all(cuts.map((c) => encodeRegion(c.pixels)));
    cuts.forEach((c, i) => regions.push({ questionNo: c.reading.questionNo, kind: c.reading.kind, jpeg: jpegs[i] as Buffer }));
  }
  reading.confidence = blank ? 1 : round(Math.min(1, ...confidences), 3);
  return { result: { reading, regions }, blank };
}

function roundTransform(t: AffineTransform): AffineTransform {
  return { a: round(t.a, 6), b: round(t.b, 6), c: round(t.c, 6), d: round(t.d, 6), e: round(t.e, 3), f: round(t.f, 3) };
}
