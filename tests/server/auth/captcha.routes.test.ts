import { describe, expect, it } from 'vitest';
import { captchaSchema } from '../../../src/shared/contract/auth';
import { CAPTCHA_ALPHABET } from '../../../server/services/auth/captcha-svg';
import { outbox } from '../accounts-helper';
import { useTestApp } from '../helper';

describe('GET /api/captcha', () => {
  const app = useTestApp();

  it('answers an SVG image, a key and a five-minute lifetime', async () => {
    const response = await app().inject({ method: 'GET', url: '/api/captcha' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const captcha = captchaSchema.parse(response.json().data);
    expect(captcha.expiresIn).toBe(300);
    expect(captcha.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
    expect(captcha.svg.match(/<path /g)!.length).toBeGreaterThanOrEqual(4 + 5);
  });

  it('draws the characters as strokes, never as readable text in the markup', async () => {
    const { svg, captchaKey } = captchaSchema.parse((await app().inject({ method: 'GET', url: '/api/captcha' })).json().data);
    const text = (await outbox(app())).captcha.find((entry) => entry.key === captchaKey)!.text;
    expect(svg).not.toContain('<text');
    expect(svg).not.toContain(text);
  });

  it('uses four characters from an alphabet without look-alikes', async () => {
    for (let i = 0; i < 5; i += 1) await app().inject({ method: 'GET', url: '/api/captcha' });
    const texts = (await outbox(app())).captcha.map((entry) => entry.text);
    for (const text of texts) {
      expect(text).toMatch(/^.{4}$/);
      for (const char of text) expect(CAPTCHA_ALPHABET).toContain(char);
    }
    for (const ambiguous of ['0', 'O', '1', 'I', 'L']) expect(CAPTCHA_ALPHABET).not.toContain(ambiguous);
  });

  it('answers a different key each time', async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 3; i += 1) keys.add((await app().inject({ method: 'GET', url: '/api/captcha' })).json().data.captchaKey);
    expect(keys.size).toBe(3);
  });
});
