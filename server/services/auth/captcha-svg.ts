/**
 * Draws an image captcha as SVG without any font or text element: each character is a set of jittered
 * strokes on a 4 x 6 grid, rotated on its own, over noise curves and dots. Owns drawing only; storing and
 * checking answers is captcha.service.ts.
 */
import { randomInt } from 'node:crypto';

type Stroke = ReadonlyArray<readonly [number, number]>;

/** No 0/O, 1/I/L, 2/Z, 5/S, 6/G or B/8 pairs: every character reads one way only. */
const GLYPHS: Record<string, readonly Stroke[]> = {
  A: [
    [
      [0, 6],
      [2, 0],
      [4, 6],
    ],
    [
      [1, 4],
      [3, 4],
    ],
  ],
  C: [
    [
      [4, 1],
      [3, 0],
      [1, 0],
      [0, 1],
      [0, 5],
      [1, 6],
      [3, 6],
      [4, 5],
    ],
  ],
  D: [
    [
      [0, 0],
      [0, 6],
      [3, 6],
      [4, 5],
      [4, 1],
      [3, 0],
      [0, 0],
    ],
  ],
  E: [
    [
      [4, 0],
      [0, 0],
      [0, 6],
      [4, 6],
    ],
    [
      [0, 3],
      [3, 3],
    ],
  ],
  F: [
    [
      [4, 0],
      [0, 0],
      [0, 6],
    ],
    [
      [0, 3],
      [3, 3],
    ],
  ],
  H: [
    [
      [0, 0],
      [0, 6],
    ],
    [
      [4, 0],
      [4, 6],
    ],
    [
      [0, 3],
      [4, 3],
    ],
  ],
  J: [
    [
      [1, 0],
      [4, 0],
    ],
    [
      [3, 0],
      [3, 5],
      [2, 6],
      [1, 6],
      [0, 5],
    ],
  ],
  K: [
    [
      [0, 0],
      [0, 6],
    ],
    [
      [4, 0],
      [0, 4],
    ],
    [
      [1, 3],
      [4, 6],
    ],
  ],
  M: [
    [
      [0, 6],
      [0, 0],
      [2, 3],
      [4, 0],
      [4, 6],
    ],
  ],
  N: [
    [
      [0, 6],
      [0, 0],
      [4, 6],
      [4, 0],
    ],
  ],
  P: [
    [
      [0, 6],
      [0, 0],
      [3, 0],
      [4, 1],
      [4, 2],
      [3, 3],
      [0, 3],
    ],
  ],
  R: [
    [
      [0, 6],
      [0, 0],
      [3, 0],
      [4, 1],
      [4, 2],
      [3, 3],
      [0, 3],
    ],
    [
      [2, 3],
      [4, 6],
    ],
  ],
  T: [
    [
      [0, 0],
      [4, 0],
    ],
    [
      [2, 0],
      [2, 6],
    ],
  ],
  U: [
    [
      [0, 0],
      [0, 5],
      [1, 6],
      [3, 6],
      [4, 5],
      [4, 0],
    ],
  ],
  V: [
    [
      [0, 0],
      [2, 6],
      [4, 0],
    ],
  ],
  W: [
    [
      [0, 0],
      [1, 6],
      [2, 2],
      [3, 6],
      [4, 0],
    ],
  ],
  X: [
    [
      [0, 0],
      [4, 6],
    ],
    [
      [4, 0],
      [0, 6],
    ],
  ],
  Y: [
    [
      [0, 0],
      [2, 3],
      [4, 0],
    ],
    [
      [2, 3],
      [2, 6],
    ],
  ],
  '3': [
    [
      [0, 0],
      [4, 0],
      [2, 2.5],
      [3, 2.5],
      [4, 3.5],
      [4, 5],
      [3, 6],
      [1, 6],
      [0, 5],
    ],
  ],
  '4': [
    [
      [3, 6],
      [3, 0],
      [0, 4],
      [4, 4],
    ],
  ],
  '7': [
    [
      [0, 0],
      [4, 0],
      [1.5, 6],
    ],
  ],
  '8': [
    [
      [1, 0],
      [3, 0],
      [4, 1],
      [4, 2],
      [3, 3],
      [1, 3],
      [0, 4],
      [0, 5],
      [1, 6],
      [3, 6],
      [4, 5],
      [4, 4],
      [3, 3],
    ],
    [
      [1, 3],
      [0, 2],
      [0, 1],
      [1, 0],
    ],
  ],
  '9': [
    [
      [4, 3],
      [1, 3],
      [0, 2],
      [0, 1],
      [1, 0],
      [3, 0],
      [4, 1],
      [4, 5],
      [3, 6],
      [1, 6],
    ],
  ],
};

export const CAPTCHA_ALPHABET = Object.keys(GLYPHS).join('');
export const CAPTCHA_LENGTH = 4;

const WIDTH = 120;
const HEIGHT = 40;
const UNIT = 4.4;

const between = (min: number, max: number) => min + (randomInt(0, 10_001) / 10_000) * (max - min);
const fixed = (value: number) => value.toFixed(1);
const darkColour = () => `rgb(${randomInt(20, 110)},${randomInt(20, 110)},${randomInt(40, 140)})`;
const lightColour = () => `rgb(${randomInt(120, 200)},${randomInt(120, 200)},${randomInt(120, 200)})`;

export function randomCaptchaText(): string {
  let text = '';
  for (let i = 0; i < CAPTCHA_LENGTH; i += 1) text += CAPTCHA_ALPHABET[randomInt(0, CAPTCHA_ALPHABET.length)];
  return text;
}

function glyphPath(char: string, index: number): string {
  const strokes = GLYPHS[char];
  if (!strokes) throw new Error(`No glyph for ${char}`);
  const centreX = 18 + index * 28 + between(-2, 2);
  const centreY = HEIGHT / 2 + between(-3, 3);
  const angle = (between(-28, 28) * Math.PI) / 180;
  const scale = UNIT * between(0.9, 1.1);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const place = ([x, y]: readonly [number, number]) => {
    const dx = (x - 2 + between(-0.25, 0.25)) * scale;
    const dy = (y - 3 + between(-0.25, 0.25)) * scale;
    return `${fixed(centreX + dx * cos - dy * sin)} ${fixed(centreY + dx * sin + dy * cos)}`;
  };
  const d = strokes.map((stroke) => stroke.map((point, i) => `${i === 0 ? 'M' : 'L'}${place(point)}`).join(' ')).join(' ');
  return `<path d="${d}" fill="none" stroke="${darkColour()}" stroke-width="${fixed(between(2.2, 3))}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

function noiseCurve(): string {
  const y = () => fixed(between(4, HEIGHT - 4));
  return `<path d="M0 ${y()} C${fixed(between(20, 50))} ${y()} ${fixed(between(70, 100))} ${y()} ${WIDTH} ${y()}" fill="none" stroke="${lightColour()}" stroke-width="${fixed(between(1, 2))}"/>`;
}

function noiseDot(): string {
  return `<circle cx="${fixed(between(0, WIDTH))}" cy="${fixed(between(0, HEIGHT))}" r="${fixed(between(0.6, 1.4))}" fill="${lightColour()}"/>`;
}

export function renderCaptchaSvg(text: string): string {
  const parts = [
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="rgb(${randomInt(235, 250)},${randomInt(235, 250)},${randomInt(235, 250)})"/>`,
    ...Array.from({ length: 30 }, noiseDot),
    ...Array.from({ length: 3 }, noiseCurve),
    ...[...text].map(glyphPath),
    ...Array.from({ length: 2 }, noiseCurve),
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${parts.join('')}</svg>`;
}
