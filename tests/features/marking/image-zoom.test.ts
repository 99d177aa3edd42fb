import { describe, expect, it } from 'vitest';
import {
  clampScale,
  fitTransform,
  IMAGE_ZOOM_MAX,
  IMAGE_ZOOM_MIN,
  toFraction,
  zoomAbout,
} from '../../../src/features/marking/image-zoom';

describe('answer image zoom', () => {
  it('keeps the scale within the spec’s image viewer limits, 0.01 to 100', () => {
    expect(IMAGE_ZOOM_MIN).toBe(0.01);
    expect(IMAGE_ZOOM_MAX).toBe(100);
    expect(clampScale(0.001)).toBe(0.01);
    expect(clampScale(250)).toBe(100);
    expect(clampScale(2)).toBe(2);
  });

  it('zooms about the given point, which stays where it was on screen', () => {
    const view = zoomAbout({ scale: 1, x: 10, y: 20 }, 2, 110, 70);
    expect(view).toEqual({ scale: 2, x: -90, y: -30 });
    // The image point under (110, 70) was (100, 50) before and is still (100, 50).
    expect((110 - view.x) / view.scale).toBe(100);
    expect((70 - view.y) / view.scale).toBe(50);
  });

  it('fits the whole image, centred, without enlarging it', () => {
    expect(fitTransform(2000, 500, 1000, 800)).toEqual({ scale: 0.5, x: 0, y: 275 });
    expect(fitTransform(200, 100, 1000, 800)).toEqual({ scale: 1, x: 400, y: 350 });
  });

  it('on a phone, fits a tall answer’s width and shows its top instead of shrinking it whole', () => {
    // 800 x 2400 in a 375 x 500 box: whole it would be shown at 0.21; by its width at 0.47.
    expect(fitTransform(800, 2400, 375, 500)).toEqual({ scale: 375 / 800, x: 0, y: 0 });
    // A short answer is still centred, and a small one not enlarged.
    expect(fitTransform(750, 200, 375, 500)).toEqual({ scale: 0.5, x: 0, y: 200 });
    expect(fitTransform(300, 100, 375, 500)).toEqual({ scale: 1, x: 37.5, y: 200 });
  });

  it('turns a click into fractions of the image, and ignores clicks beside it', () => {
    const rect = { left: 100, top: 50, width: 400, height: 200 };
    expect(toFraction(200, 150, rect)).toEqual({ x: 0.25, y: 0.5 });
    expect(toFraction(90, 150, rect)).toBeNull();
  });
});
