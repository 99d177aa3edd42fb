/**
 * Finds the four corner fiducials (solid black squares) of a scanned sheet: in a window around where
 * each corner's square should be, the dark connected component of the right size and squareness
 * nearest to that spot, located to a fraction of a pixel by an intensity-weighted centroid at full
 * resolution; a square the scan's edge cuts off is still used, its centre inferred from what is
 * left. Corners are the image's own; which template corner each is depends on the page's
 * orientation, decided later from the QR. Knows nothing of templates beyond the frame.
 */
import { darkColumns } from './bubble-reader';
import { histogram, percentile, type GreyImage } from './grey-image';
import type { FiducialCorner } from '../../../src/shared/contract/answer-sheet';
import { FIDUCIAL_CORNERS, type PageFrame } from './sheet-frame';

export type FoundFiducial = {
  /** The image corner it was found in. */
  corner: FiducialCorner;
  /** Centre in image pixels. */
  x: number;
  y: number;
  /** Side of the square in pixels (from its area). */
  sidePx: number;
  /** Grey level of its inside: the printer's black on this scan. */
  black: number;
  /** Part of it lies beyond the scan's edge: the centre is inferred from the rest. */
  cut: boolean;
};

/** How far from its nominal place a fiducial is looked for: rotation, scale and feed offsets add up. */
const SEARCH_RADIUS_MM = 26;
/** Size and shape limits of a fiducial's component, relative to a nominal square. */
const AREA_RANGE = [0.55, 1.6] as const;
const SIDE_RANGE = [0.75, 1.45] as const;
const MIN_FILL = 0.65;
/** A square cut off by the scan's edge must still show this share of its side across the cut. */
const MIN_VISIBLE = 0.1;

/** Where the scan's edge cuts a square, per axis: its low or high edge, or nowhere. */
type Cut = { x: 'low' | 'high' | null; y: 'low' | 'high' | null };

export type Component = {
  area: number;
  sumX: number;
  sumY: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  edge: boolean;
};

/** Dark connected components (4-connected) of a binary mask. */
export function components(mask: Uint8Array, width: number, height: number): Component[] {
  const seen = new Uint8Array(mask.length);
  const stack = new Int32Array(mask.length);
  const found: Component[] = [];
  for (let start = 0; start < mask.length; start += 1) {
    if (!mask[start] || seen[start]) continue;
    const c: Component = { area: 0, sumX: 0, sumY: 0, minX: width, maxX: 0, minY: height, maxY: 0, edge: false };
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const i = stack[--top] as number;
      const x = i % width;
      const y = (i - x) / width;
      c.area += 1;
      c.sumX += x;
      c.sumY += y;
      if (x < c.minX) c.minX = x;
      if (x > c.maxX) c.maxX = x;
      if (y < c.minY) c.minY = y;
      if (y > c.maxY) c.maxY = y;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) c.edge = true;
      if (x > 0 && mask[i - 1] && !seen[i - 1]) {
        seen[i - 1] = 1;
        stack[top++] = i - 1;
      }
      if (x < width - 1 && mask[i + 1] && !seen[i + 1]) {
        seen[i + 1] = 1;
        stack[top++] = i + 1;
      }
      if (y > 0 && mask[i - width] && !seen[i - width]) {
        seen[i - width] = 1;
        stack[top++] = i - width;
      }
      if (y < height - 1 && mask[i + width] && !seen[i + width]) {
        seen[i + width] = 1;
        stack[top++] = i + width;
      }
    }
    found.push(c);
  }
  return found;
}

/** Looks for one corner's fiducial; null when no component there looks like one. */
function findInCorner(img: GreyImage, frame: PageFrame, corner: FiducialCorner): FoundFiducial | null {
  const nominal = frame.fiducials.find((f) => f.corner === corner);
  if (!nominal) return null;
  const kx = img.width / frame.widthMm;
  const ky = img.height / frame.heightMm;
  const k = (kx + ky) / 2;
  const ex = nominal.xMm * kx;
  const ey = nominal.yMm * ky;
  const sidePx = nominal.sizeMm * k;
  // Sample so that the square spans about 30 samples: plenty for its shape, cheap to label.
  const step = Math.max(1, Math.floor(sidePx / 30));
  const r = SEARCH_RADIUS_MM * k;
  const x0 = Math.max(0, Math.floor(ex - r));
  const y0 = Math.max(0, Math.floor(ey - r));
  const x1 = Math.min(img.width, Math.ceil(ex + r));
  const y1 = Math.min(img.height, Math.ceil(ey + r));
  const w = Math.floor((x1 - x0) / step);
  const h = Math.floor((y1 - y0) / step);
  if (w < 3 || h < 3) return null;

  const hist = histogram(img, x0, y0, x1, y1, step);
  const white = percentile(hist, 0.9);
  // Toner under half the paper's grey. A scan of low contrast (grey paper, grey toner: paper 190, toner
  // 70-100) puts its noisy black above that: then half way between the paper and the window's darkest
  // pixels (a fiducial covers a few per cent of the window).
  const half = white * 0.5;
  const between = (white + percentile(hist, 0.01)) / 2;
  const window: SearchWindow = { corner, x0, y0, w, h, step, sidePx, ex, ey, r };
  for (const threshold of between > half ? [half, between] : [half]) {
    const repaired = repairedStreaks(img, window, threshold);
    const found = repaired ? fiducialBesideStreaks(repaired, window, threshold) : fiducialAt(img, window, threshold);
    if (found) return found;
  }
  return null;
}

/**
 * The fiducial of a window crossed by scanner streaks, or null: looked for with the streaks' columns
 * repaired (`repairedStreaks`). A dark streak down the square's column would join it to a line the
 * length of the window, which no square's size fits; one beside it would pull its centre. A square a
 * streak ran along the side of comes out shaved: its centre is put half its height (which a vertical
 * streak leaves whole) from its other side.
 */
function fiducialBesideStreaks(
  repaired: { img: GreyImage; runs: [number, number][] },
  window: SearchWindow,
  threshold: number,
): FoundFiducial | null {
  const found = fiducialAt(repaired.img, window, threshold);
  if (!found || found.cut) return found;
  const half = found.sidePx * 0.66;
  const box = { x0: found.x - half, y0: found.y - half, x1: found.x + half, y1: found.y + half };
  // Ink per row is the square's width the streak left; ink per column its whole height.
  const { rows, columns } = boxInk(repaired.img, box, threshold);
  const [width, height] = [typicalMass(rows), typicalMass(columns)];
  if (height - width < SHAVED_PX) return found;
  const touches = (edge: number) => repaired.runs.some(([from, to]) => edge >= from - SHAVED_PX && edge <= to + SHAVED_PX);
  const onRight = touches(found.x + width / 2);
  if (onRight === touches(found.x - width / 2)) return found;
  return { ...found, x: found.x + ((onRight ? 1 : -1) * (height - width)) / 2, sidePx: height, cut: true };
}

/** A square narrower than it is high by this many pixels, beside a streak, was shaved by it. */
const SHAVED_PX = 1.5;

/** A column darker than its threshold over this share of a search window's height is a scanner streak. */
const STREAK_COLUMN_SHARE = 0.9;
/** Streaks cover at most this share of a search window's columns. */
const STREAK_MAX_SHARE = 0.25;

/**
 * A copy of the image whose scanner streaks in a search window are repaired, with the window columns
 * they cover (inclusive runs), or null when no column of the window is one. A streak column is darker
 * than `threshold` down nearly the whole window, which a fiducial, 8 mm of a window of 52, never is.
 * Each row of a run takes the brighter of the pixels just outside it: ink only where ink lies on both
 * sides (a square the streak ran through), paper elsewhere. Vertical streaks only: a sheet-fed
 * scanner's sensor line draws them down the page.
 */
function repairedStreaks(
  img: GreyImage,
  window: SearchWindow,
  threshold: number,
): { img: GreyImage; runs: [number, number][] } | null {
  const { x0, y0, w, h, step } = window;
  const x1 = x0 + w * step;
  const y1 = y0 + h * step;
  const runs = darkColumns(img, x0, x1 - 1, (y0 + y1) / 2, y1 - y0, threshold, STREAK_COLUMN_SHARE);
  const columns = runs.reduce((n, [from, to]) => n + to - from + 1, 0);
  // Dark over most of the window is no streak: a threshold above the paper (a scan of low contrast).
  if (runs.length === 0 || columns > STREAK_MAX_SHARE * w * step) return null;
  const data = img.data.slice();
  for (const [from, to] of runs) {
    for (let y = y0; y < y1; y += 1) {
      const row = y * img.width;
      const left = from > 0 ? data[row + from - 1]! : 255;
      const right = to < img.width - 1 ? data[row + to + 1]! : 255;
      data.fill(Math.max(left, right), row + from, row + to + 1);
    }
  }
  return { img: { data, width: img.width, height: img.height }, runs };
}

/** Box bounds clipped to the image, with the ink (`inkWeight`) per row and column and its centroid sums. */
function boxInk(img: GreyImage, box: { x0: number; y0: number; x1: number; y1: number }, threshold: number) {
  const x0 = Math.max(0, Math.floor(box.x0));
  const y0 = Math.max(0, Math.floor(box.y0));
  const x1 = Math.min(img.width, Math.ceil(box.x1));
  const y1 = Math.min(img.height, Math.ceil(box.y1));
  const rows = new Float64Array(y1 - y0);
  const columns = new Float64Array(x1 - x0);
  let sum = 0;
  let sumX = 0;
  let sumY = 0;
  for (let y = y0; y < y1; y += 1) {
    const row = y * img.width;
    for (let x = x0; x < x1; x += 1) {
      const weight = inkWeight(img.data[row + x]!, threshold);
      rows[y - y0]! += weight;
      columns[x - x0]! += weight;
      sum += weight;
      sumX += weight * x;
      sumY += weight * y;
    }
  }
  return { x0, y0, x1, y1, rows, columns, sum, sumX, sumY };
}

/** The median of the masses over half the largest: the ink across a square's full lines. */
function typicalMass(masses: Float64Array): number {
  const max = Math.max(...masses);
  const solid = [...masses].filter((m) => m > 0.5 * max).sort((p, q) => p - q);
  return solid[Math.floor(solid.length / 2)] ?? 0;
}

/** The search window of one corner: its pixels (sampled every `step`), the nominal square and where it should be. */
type SearchWindow = {
  corner: FiducialCorner;
  x0: number;
  y0: number;
  w: number;
  h: number;
  step: number;
  sidePx: number;
  ex: number;
  ey: number;
  r: number;
};

/** The fiducial in a search window, its ink darker than `threshold`, or null. */
function fiducialAt(img: GreyImage, window: SearchWindow, threshold: number): FoundFiducial | null {
  const { corner, x0, y0, w, h, step, sidePx, ex, ey, r } = window;
  const mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y += 1) {
    const row = (y0 + y * step) * img.width + x0;
    for (let x = 0; x < w; x += 1) mask[y * w + x] = (img.data[row + x * step] as number) < threshold ? 1 : 0;
  }

  const side = sidePx / step;
  // Which window edges are the image's own: a square touching one of those is cut off by the scan.
  const imageEdge = {
    left: x0 === 0,
    top: y0 === 0,
    right: x0 + w * step >= img.width - step,
    bottom: y0 + h * step >= img.height - step,
  };
  let best: { c: Component; cut: Cut; distance: number } | null = null;
  for (const c of components(mask, w, h)) {
    const touches = { left: c.minX === 0, right: c.maxX === w - 1, top: c.minY === 0, bottom: c.maxY === h - 1 };
    // Cut by the search window rather than the scan: something larger than a fiducial.
    if ((touches.left && !imageEdge.left) || (touches.right && !imageEdge.right)) continue;
    if ((touches.top && !imageEdge.top) || (touches.bottom && !imageEdge.bottom)) continue;
    const cut: Cut = {
      x: touches.left ? 'low' : touches.right ? 'high' : null,
      y: touches.top ? 'low' : touches.bottom ? 'high' : null,
    };
    const bw = c.maxX - c.minX + 1;
    const bh = c.maxY - c.minY + 1;
    const fits = (extent: number, isCut: boolean) =>
      extent <= SIDE_RANGE[1] * side && extent >= (isCut ? MIN_VISIBLE : SIDE_RANGE[0]) * side;
    if (!fits(bw, cut.x !== null) || !fits(bh, cut.y !== null)) continue;
    const minArea = cut.x || cut.y ? MIN_VISIBLE * AREA_RANGE[0] : AREA_RANGE[0];
    if (c.area < minArea * side * side || c.area > AREA_RANGE[1] * side * side) continue;
    if (c.area / (bw * bh) < MIN_FILL) continue;
    const cx = x0 + (c.sumX / c.area) * step;
    const cy = y0 + (c.sumY / c.area) * step;
    // A whole square beats a cut one; among equals, the nearest to where it should be.
    const distance = Math.hypot(cx - ex, cy - ey) + (cut.x || cut.y ? r : 0);
    if (!best || distance < best.distance) best = { c, cut, distance };
  }
  if (!best) return null;
  const coarseX = x0 + (best.c.sumX / best.c.area) * step + (step - 1) / 2;
  const coarseY = y0 + (best.c.sumY / best.c.area) * step + (step - 1) / 2;
  if (best.cut.x || best.cut.y) {
    const box = {
      x0: x0 + best.c.minX * step - step,
      y0: y0 + best.c.minY * step - step,
      x1: x0 + (best.c.maxX + 2) * step,
      y1: y0 + (best.c.maxY + 2) * step,
    };
    return refineCut(img, corner, box, best.cut, sidePx, threshold);
  }
  return refine(img, corner, coarseX, coarseY, Math.sqrt(best.c.area) * step, threshold);
}

/** Weight of a pixel as ink: 1 well below the threshold, 0 well above, linear across a soft band. */
function inkWeight(v: number, threshold: number): number {
  const hi = threshold * 1.35;
  const lo = threshold * 0.65;
  return v <= lo ? 1 : v >= hi ? 0 : (hi - v) / (hi - lo);
}

/**
 * The centre to a fraction of a pixel: each pixel near the square weighs by how dark it is across a
 * soft band around the threshold, so the anti-aliased edges count in proportion and paper counts zero.
 */
function refine(img: GreyImage, corner: FiducialCorner, cx: number, cy: number, side: number, threshold: number): FoundFiducial {
  // Half a side plus room for a few degrees of rotation; the sheet's content starts further out.
  const half = side * 0.66;
  const { sum, sumX, sumY } = boxInk(img, { x0: cx - half, y0: cy - half, x1: cx + half, y1: cy + half }, threshold);
  const x = sum > 0 ? sumX / sum : cx;
  const y = sum > 0 ? sumY / sum : cy;
  return { corner, x, y, sidePx: Math.sqrt(sum), black: insideLevel(img, x, y, side), cut: false };
}

function insideLevel(img: GreyImage, x: number, y: number, side: number): number {
  const inner = side * 0.3;
  return percentile(histogram(img, x - inner, y - inner, x + inner, y + inner), 0.5);
}

/**
 * The centre of a square the scan's edge cuts off, from what is left of it: along an uncut axis the
 * weighted centroid; along a cut axis, the visible extent (the ink per line across it, a median over
 * the lines) less half a side, from the image edge. The side is the visible extent of an uncut axis,
 * or the nominal one when both are cut. Less exact than a whole square; the fit's residual tells.
 */
function refineCut(
  img: GreyImage,
  corner: FiducialCorner,
  box: { x0: number; y0: number; x1: number; y1: number },
  cut: Cut,
  nominalSide: number,
  threshold: number,
): FoundFiducial {
  const { x0, y0, x1, y1, rows, columns, sum, sumX, sumY } = boxInk(img, box, threshold);
  // Ink per row is the visible width; ink per column the visible height.
  const visibleWidth = typicalMass(rows);
  const visibleHeight = typicalMass(columns);
  const side = !cut.x ? visibleWidth : !cut.y ? visibleHeight : nominalSide;
  const along = (edge: 'low' | 'high' | null, centroid: number, visible: number, size: number) =>
    edge === 'low' ? -0.5 + visible - side / 2 : edge === 'high' ? size - 0.5 - visible + side / 2 : centroid;
  const x = along(cut.x, sum > 0 ? sumX / sum : (x0 + x1) / 2, visibleWidth, img.width);
  const y = along(cut.y, sum > 0 ? sumY / sum : (y0 + y1) / 2, visibleHeight, img.height);
  const insideX = Math.min(Math.max(x, side * 0.3), img.width - side * 0.3);
  const insideY = Math.min(Math.max(y, side * 0.3), img.height - side * 0.3);
  return { corner, x, y, sidePx: side, black: insideLevel(img, insideX, insideY, side), cut: true };
}

/** The fiducials found in the image's four corners (a corner is missing when none was found there). */
export function findFiducials(img: GreyImage, frame: PageFrame): FoundFiducial[] {
  return FIDUCIAL_CORNERS.map((corner) => findInCorner(img, frame, corner)).filter((f): f is FoundFiducial => f !== null);
}
