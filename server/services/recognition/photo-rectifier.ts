/**
 * Turns a phone photo of an answer sheet into what a scanner would have delivered, so the rest of the
 * recognition reads it like any scan: finds the four corner fiducials anywhere in the picture (on a
 * reduced copy, after evening out the lighting), fits the perspective transform (homography) from the
 * template's fiducials to them, checks the photo is sharp enough, and resamples the page at 300 dpi with
 * the paper's own brightness taken out (shadows and uneven light). A photo that shows fewer than four
 * fiducials (cut off) or is blurred is rejected at once, with the reason, so it can be retaken.
 */
import { PAGE_SIZE_MM, sheetFrame } from '../../../src/shared/lib/answer-sheet-layout';
import type { PointPair } from './affine-fit';
import { components, type Component } from './fiducial-finder';
import { greyAt, type GreyImage } from './grey-image';
import { fitHomography, localAffine, type Homography } from './homography-fit';
import { median } from './sample-stats';

/** Resampled output: the scan station's A4 size at 300 dpi (A3 landscape twice as wide). */
const OUT_PX_PER_MM = 2480 / 210;
/** The reduced copy's longer side, pixels. */
const REDUCED_SIDE = 1000;
/**
 * Lighting is estimated over blocks of this many reduced pixels (about 3 mm of page in a 12 MP photo):
 * fine enough to follow the edge of a shadow, which falls off over a centimetre or two.
 */
const LIGHT_BLOCK = 8;
/** The fiducials are looked for in the reduced copy levelled over coarser blocks (reduced pixels). */
const FIND_BLOCK = 16;
/**
 * Blocks of ink (a fiducial, a filled bubble, the QR's finder patterns) are bridged by a morphological
 * closing of this radius in blocks (a 5 x 5 window, about 15 mm): wider than any solid print on the
 * sheet, narrower than a shadow or a gradient, which the closing keeps at their own level.
 */
const LIGHT_CLOSING_RADIUS = 2;
/** Paper white after the correction. */
const PAPER_WHITE = 245;
/** Edge width (10 % to 90 % of the fiducial's step) above which a photo is too blurred to read, mm. */
export const MAX_EDGE_MM = 0.65;
/** Photos smaller than this are not treated as photos (a scan that failed stays a failed scan). */
const MIN_PHOTO_PIXELS = 2_000_000;

export type PhotoRejection = 'cutOff' | 'blurred';

export type PhotoOutcome =
  | {
      kind: 'rectified';
      img: GreyImage;
      /** Template millimetres (of the guessed paper) to photo pixels. */
      homography: Homography;
      /** Edge width of the fiducials in mm (sharpness: smaller is sharper). */
      edgeMm: number;
    }
  | { kind: 'rejected'; reason: PhotoRejection; detail: string };

/** Whether an image is worth trying as a photo: big enough, and not already the scan station's size. */
export function mayBePhoto(img: GreyImage): boolean {
  return img.width * img.height >= MIN_PHOTO_PIXELS;
}

type Reduced = { data: Float32Array; width: number; height: number; factor: number };

/** Box-averaged copy with the paper brightness divided out (1 = paper, 0 = black). */
function reduceAndLevel(img: GreyImage): { reduced: Reduced; white: Float32Array; blocksX: number; blocksY: number } {
  const factor = Math.max(1, Math.round(Math.max(img.width, img.height) / REDUCED_SIDE));
  const width = Math.floor(img.width / factor);
  const height = Math.floor(img.height / factor);
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy += 1) {
        const row = (y * factor + dy) * img.width + x * factor;
        for (let dx = 0; dx < factor; dx += 1) sum += img.data[row + dx]!;
      }
      data[y * width + x] = sum / (factor * factor);
    }
  }
  // Two estimates of the paper's level: a coarse one (the largest of 3 x 3 blocks, smoothed) that
  // levels the reduced copy the fiducials are looked for in, and a fine closed one (paperLevel) that
  // the resampled page is divided by, which follows a shadow's edge.
  const coarse = blockLevels(data, width, height, FIND_BLOCK);
  const findWhite = meanOfNeighbours(
    neighbourhood(coarse.level, coarse.blocksX, coarse.blocksY, 1, true),
    coarse.blocksX,
    coarse.blocksY,
  );
  const fine = blockLevels(data, width, height, LIGHT_BLOCK);
  const white = paperLevel(fine.level, fine.blocksX, fine.blocksY);
  const { blocksX, blocksY } = fine;
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1)
      data[y * width + x] =
        data[y * width + x]! / whiteAt(findWhite, coarse.blocksX, coarse.blocksY, x / FIND_BLOCK, y / FIND_BLOCK);
  return { reduced: { data, width, height, factor }, white, blocksX, blocksY };
}

/** Each block's 90th percentile of the reduced copy (its paper, unless the block is nearly all ink). */
function blockLevels(data: Float32Array, width: number, height: number, block: number) {
  const blocksX = Math.ceil(width / block);
  const blocksY = Math.ceil(height / block);
  const level = new Float32Array(blocksX * blocksY);
  const sample: number[] = [];
  for (let by = 0; by < blocksY; by += 1) {
    for (let bx = 0; bx < blocksX; bx += 1) {
      sample.length = 0;
      for (let y = by * block; y < Math.min(height, (by + 1) * block); y += 1)
        for (let x = bx * block; x < Math.min(width, (bx + 1) * block); x += 1) sample.push(data[y * width + x]!);
      sample.sort((p, q) => p - q);
      level[by * blocksX + bx] = Math.max(30, sample[Math.floor(0.9 * (sample.length - 1))] ?? 255);
    }
  }
  return { level, blocksX, blocksY };
}

/** Each block's mean over its 3 x 3 neighbourhood. */
function meanOfNeighbours(src: Float32Array, blocksX: number, blocksY: number): Float32Array {
  const out = new Float32Array(src.length);
  for (let by = 0; by < blocksY; by += 1)
    for (let bx = 0; bx < blocksX; bx += 1) {
      let sum = 0;
      let count = 0;
      for (let y = Math.max(0, by - 1); y <= Math.min(blocksY - 1, by + 1); y += 1)
        for (let x = Math.max(0, bx - 1); x <= Math.min(blocksX - 1, bx + 1); x += 1) {
          sum += src[y * blocksX + x]!;
          count += 1;
        }
      out[by * blocksX + bx] = sum / count;
    }
  return out;
}

/** The extreme (max or min) of each block's square neighbourhood of the given radius. */
function neighbourhood(src: Float32Array, blocksX: number, blocksY: number, radius: number, max: boolean): Float32Array {
  const out = new Float32Array(src.length);
  for (let by = 0; by < blocksY; by += 1)
    for (let bx = 0; bx < blocksX; bx += 1) {
      let best = max ? -Infinity : Infinity;
      for (let y = Math.max(0, by - radius); y <= Math.min(blocksY - 1, by + radius); y += 1)
        for (let x = Math.max(0, bx - radius); x <= Math.min(blocksX - 1, bx + radius); x += 1) {
          const v = src[y * blocksX + x]!;
          best = max ? Math.max(best, v) : Math.min(best, v);
        }
      out[by * blocksX + bx] = best;
    }
  return out;
}

/**
 * The paper's brightness per block from each block's bright percentile: closed (the largest of the
 * neighbourhood, then the smallest of that) so a block all ink takes its neighbours' paper while a
 * shadow keeps its own darker level (a plain maximum would lift a shadow's core to the lit paper
 * beside it and leave the shadow in the page), then averaged over 3 x 3 blocks.
 */
export function paperLevel(level: Float32Array, blocksX: number, blocksY: number): Float32Array {
  const closed = neighbourhood(
    neighbourhood(level, blocksX, blocksY, LIGHT_CLOSING_RADIUS, true),
    blocksX,
    blocksY,
    LIGHT_CLOSING_RADIUS,
    false,
  );
  return meanOfNeighbours(closed, blocksX, blocksY);
}

/** The paper level at block coordinates (bilinear between block centres). */
function whiteAt(white: Float32Array, blocksX: number, blocksY: number, bx: number, by: number): number {
  const x = Math.min(blocksX - 1, Math.max(0, bx - 0.5));
  const y = Math.min(blocksY - 1, Math.max(0, by - 0.5));
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(blocksX - 1, x0 + 1);
  const y1 = Math.min(blocksY - 1, y0 + 1);
  const fx = x - x0;
  const fy = y - y0;
  const top = white[y0 * blocksX + x0]! * (1 - fx) + white[y0 * blocksX + x1]! * fx;
  const bottom = white[y1 * blocksX + x0]! * (1 - fx) + white[y1 * blocksX + x1]! * fx;
  return top * (1 - fy) + bottom * fy;
}

type Candidate = { x: number; y: number; area: number; side: number; edge: boolean };

/** Solid dark squares of a plausible size in the levelled reduced copy. */
function squareCandidates(reduced: Reduced): Candidate[] {
  const { data, width, height } = reduced;
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i += 1) mask[i] = data[i]! < 0.45 ? 1 : 0;
  const long = Math.max(width, height);
  return components(mask, width, height)
    .filter((c: Component) => {
      const w = c.maxX - c.minX + 1;
      const h = c.maxY - c.minY + 1;
      const side = Math.sqrt(c.area);
      return side >= long / 200 && side <= long / 20 && w / h >= 0.6 && w / h <= 1.6 && c.area / (w * h) >= 0.6;
    })
    .map((c) => ({ x: c.sumX / c.area, y: c.sumY / c.area, area: c.area, side: Math.sqrt(c.area), edge: c.edge }));
}

/** Intensity-weighted centre of a fiducial at full resolution, around a reduced-copy estimate. */
function refineCentre(img: GreyImage, cx: number, cy: number, side: number): { x: number; y: number } {
  const r = side * 0.9;
  const x0 = Math.max(0, Math.floor(cx - r));
  const y0 = Math.max(0, Math.floor(cy - r));
  const x1 = Math.min(img.width - 1, Math.ceil(cx + r));
  const y1 = Math.min(img.height - 1, Math.ceil(cy + r));
  let lo = 255;
  let hi = 0;
  for (let y = y0; y <= y1; y += 2)
    for (let x = x0; x <= x1; x += 2) {
      const v = img.data[y * img.width + x]!;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  const mid = (lo + hi) / 2;
  let sw = 0;
  let sx = 0;
  let sy = 0;
  for (let y = y0; y <= y1; y += 1)
    for (let x = x0; x <= x1; x += 1) {
      const v = img.data[y * img.width + x]!;
      if (v >= mid) continue;
      const w = Math.min(1, (mid - v) / Math.max(1, (mid - lo) / 2));
      sw += w;
      sx += w * x;
      sy += w * y;
    }
  return sw > 0 ? { x: sx / sw, y: sy / sw } : { x: cx, y: cy };
}

/**
 * Edge width of a fiducial in photo pixels: across its left and right edges on rows through its
 * middle, the distance from 10 % to 90 % of the step from black to paper (median of the rows).
 */
function edgeWidthPx(img: GreyImage, cx: number, cy: number, side: number): number {
  const widths: number[] = [];
  for (const dy of [-0.2, -0.1, 0, 0.1, 0.2]) {
    const y = Math.round(cy + dy * side);
    if (y < 0 || y >= img.height) continue;
    for (const dir of [-1, 1]) {
      const profile: number[] = [];
      for (let k = 0; k <= side; k += 1) {
        const x = Math.round(cx + dir * k);
        if (x < 0 || x >= img.width) break;
        profile.push(img.data[y * img.width + x]!);
      }
      if (profile.length < side * 0.9) continue;
      const dark = Math.min(...profile.slice(0, Math.max(1, Math.floor(side * 0.25))));
      const light = Math.max(...profile.slice(Math.floor(side * 0.75)));
      if (light - dark < 30) continue;
      const at = (share: number) => profile.findIndex((v) => v >= dark + share * (light - dark));
      const p10 = at(0.1);
      const p90 = at(0.9);
      if (p10 >= 0 && p90 >= p10) widths.push(p90 - p10);
    }
  }
  if (widths.length === 0) return Infinity;
  return median(widths);
}

/**
 * Finds the page in a photo and resamples it as a 300 dpi scan; rejects a photo that shows fewer than
 * four fiducials or whose fiducial edges are blurred.
 */
export function rectifyPhoto(img: GreyImage): PhotoOutcome {
  const { reduced, white, blocksX, blocksY } = reduceAndLevel(img);
  const found = squareCandidates(reduced);
  const biggest = Math.max(0, ...found.map((c) => c.area));
  const squares = found.filter((c) => c.area >= 0.4 * biggest);
  const pick = (score: (c: Candidate) => number) =>
    squares.reduce<Candidate | null>((best, c) => (!best || score(c) > score(best) ? c : best), null);
  const corners = [pick((c) => -c.x - c.y), pick((c) => c.x - c.y), pick((c) => c.y - c.x), pick((c) => c.x + c.y)];
  const distinct = new Set(corners).size;
  if (corners.some((c) => c === null) || distinct < 4) {
    return { kind: 'rejected', reason: 'cutOff', detail: `found ${squares.length} fiducial-like squares, need 4 corners` };
  }
  const [tl, tr, bl, br] = corners as Candidate[];
  if ([tl, tr, bl, br].some((c) => c!.edge))
    return { kind: 'rejected', reason: 'cutOff', detail: 'a fiducial touches the photo edge' };
  const sides = [tl!, tr!, bl!, br!].map((c) => c.side).sort((p, q) => p - q);
  if (sides[0]! < 0.5 * sides[3]!) return { kind: 'rejected', reason: 'cutOff', detail: 'corner squares of unequal size' };

  const f = reduced.factor;
  const full = [tl!, tr!, bl!, br!].map((c) => refineCentre(img, c.x * f + (f - 1) / 2, c.y * f + (f - 1) / 2, c.side * f));
  // The page's way round: portrait as photographed, or turned a quarter (a landscape quad). A landscape
  // quad is an A4 page turned, or an A3 page, told apart by how big the fiducials are against the page.
  const dist = (p: { x: number; y: number }, q: { x: number; y: number }) => Math.hypot(p.x - q.x, p.y - q.y);
  const across = (dist(full[0]!, full[1]!) + dist(full[2]!, full[3]!)) / 2;
  const down = (dist(full[0]!, full[2]!) + dist(full[1]!, full[3]!)) / 2;
  const landscape = across > down;
  const sideMean = (sides.reduce((s, x) => s + x, 0) / 4) * f;
  const a3 = landscape && sideMean / across < 0.023;
  const paper = a3 ? { width: PAGE_SIZE_MM.A3.height, height: PAGE_SIZE_MM.A3.width } : PAGE_SIZE_MM.A4;
  const { width: pageW, height: pageH } = a3
    ? { width: Math.max(paper.width, paper.height), height: Math.min(paper.width, paper.height) }
    : paper;
  const frame = sheetFrame(pageW, pageH);
  const at = (corner: string) => frame.fiducials.find((x) => x.corner === corner)!;
  // Which photo point each template corner is: as photographed, or a quarter turn for an A4 on its side.
  const order = landscape && !a3 ? ['bl', 'tl', 'br', 'tr'] : ['tl', 'tr', 'bl', 'br'];
  const pairs: PointPair[] = order.map((corner, i) => ({ from: { x: at(corner).xMm, y: at(corner).yMm }, to: full[i]! }));
  const homography = fitHomography(pairs);
  if (!homography) return { kind: 'rejected', reason: 'cutOff', detail: 'corner squares on a line' };

  const pxPerMm = (p: { x: number; y: number }) => {
    const t = localAffine(homography, p.x, p.y);
    return Math.sqrt(Math.abs(t.a * t.d - t.b * t.c));
  };
  const edges = pairs.map((p, i) => edgeWidthPx(img, full[i]!.x, full[i]!.y, 8 * pxPerMm(p.from)) / pxPerMm(p.from));
  edges.sort((p, q) => p - q);
  const edgeMm = (edges[1]! + edges[2]!) / 2;
  if (!(edgeMm <= MAX_EDGE_MM)) {
    return {
      kind: 'rejected',
      reason: 'blurred',
      detail: `fiducial edges ${Number.isFinite(edgeMm) ? edgeMm.toFixed(2) : '?'} mm wide`,
    };
  }

  // Resample: output pixel centre -> template mm -> photo pixel, bilinear, divided by the paper level there.
  const outW = Math.round(pageW * OUT_PX_PER_MM);
  const outH = Math.round(pageH * OUT_PX_PER_MM);
  const out = new Uint8Array(outW * outH);
  const h = homography;
  const scaleWhite = 1 / (f * LIGHT_BLOCK);
  for (let j = 0; j < outH; j += 1) {
    const yMm = (j + 0.5) / OUT_PX_PER_MM;
    for (let i = 0; i < outW; i += 1) {
      const xMm = (i + 0.5) / OUT_PX_PER_MM;
      const w = h[6]! * xMm + h[7]! * yMm + 1;
      const px = (h[0]! * xMm + h[1]! * yMm + h[2]!) / w - 0.5;
      const py = (h[3]! * xMm + h[4]! * yMm + h[5]!) / w - 0.5;
      if (px < 0 || py < 0 || px >= img.width - 1 || py >= img.height - 1) {
        out[j * outW + i] = 255;
        continue;
      }
      const v = greyAt(img, px, py);
      const paper = whiteAt(white, blocksX, blocksY, (px + 0.5) * scaleWhite, (py + 0.5) * scaleWhite);
      const level = (v * PAPER_WHITE) / paper;
      out[j * outW + i] = level > 255 ? 255 : level;
    }
  }
  return { kind: 'rectified', img: { data: out, width: outW, height: outH }, homography, edgeMm };
}
