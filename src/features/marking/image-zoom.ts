/**
 * Zoom and pan of the answer image on /write, as a pure transform: a scale within the spec's image
 * viewer limits (0.01 to 100) and an offset in screen pixels. Zooming keeps the point under the cursor
 * (or the centre) still.
 */

/** Spec §9, image viewer: zoom limits. */
export const IMAGE_ZOOM_MIN = 0.01;
export const IMAGE_ZOOM_MAX = 100;
/** One button press or wheel notch zooms by this factor. */
export const ZOOM_STEP = 1.2;

export type ViewTransform = { scale: number; x: number; y: number };

export const IDENTITY: ViewTransform = { scale: 1, x: 0, y: 0 };

export function clampScale(scale: number): number {
  return Math.min(IMAGE_ZOOM_MAX, Math.max(IMAGE_ZOOM_MIN, scale));
}

/**
 * The transform after zooming by `factor` about the point (px, py), given in the viewport's pixels from
 * its top-left corner, where the image's top-left corner sits at (x, y).
 */
export function zoomAbout(view: ViewTransform, factor: number, px: number, py: number): ViewTransform {
  const scale = clampScale(view.scale * factor);
  const applied = scale / view.scale;
  return { scale, x: px - (px - view.x) * applied, y: py - (py - view.y) * applied };
}

/** Below this viewport width (a phone), fitting fills the width and shows the top: a tall answer shown whole would be too small to read. */
export const NARROW_VIEW_PX = 600;

/**
 * The transform that shows the whole image centred in the viewport (never enlarged past 1:1); on a
 * narrow viewport, the image's full width from its top (dragging pans down).
 */
export function fitTransform(imageWidth: number, imageHeight: number, viewWidth: number, viewHeight: number): ViewTransform {
  if (imageWidth <= 0 || imageHeight <= 0 || viewWidth <= 0 || viewHeight <= 0) return IDENTITY;
  if (viewWidth < NARROW_VIEW_PX) {
    const scale = clampScale(Math.min(1, viewWidth / imageWidth));
    return { scale, x: (viewWidth - imageWidth * scale) / 2, y: Math.max(0, (viewHeight - imageHeight * scale) / 2) };
  }
  const scale = clampScale(Math.min(1, viewWidth / imageWidth, viewHeight / imageHeight));
  return { scale, x: (viewWidth - imageWidth * scale) / 2, y: (viewHeight - imageHeight * scale) / 2 };
}

/** A point on the image as fractions of its width and height (0..1), from its on-screen rectangle. */
export function toFraction(clientX: number, clientY: number, rect: { left: number; top: number; width: number; height: number }) {
  if (rect.width <= 0 || rect.height <= 0) return null;
  const x = (clientX - rect.left) / rect.width;
  const y = (clientY - rect.top) / rect.height;
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  return { x: round4(x), y: round4(y) };
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
