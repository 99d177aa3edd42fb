/**
 * The score being typed on /write, as text: what each keypad key or keyboard key does to it, and whether
 * it is a score the question accepts. Pure.
 */
import { MARKING_MESSAGES } from '../../shared/contract/marking';

/** Keys of the keypad besides the digits: the half point and clearing. */
export type ScoreKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '.' | '.5' | 'backspace' | 'clear';

export const EMPTY_SCORE_MESSAGE = '请输入分数';

/** Longest text a score may have (e.g. "100.5"); keys beyond it are ignored. */
const MAX_SCORE_LENGTH = 6;

/** The text after pressing `key`. Scores have at most one decimal; a leading zero is replaced by the next digit. */
export function pressScoreKey(text: string, key: ScoreKey): string {
  if (key === 'clear') return '';
  if (key === 'backspace') return text.slice(0, -1);
  const [whole = '', fraction] = text.split('.');
  if (key === '.5') return `${whole || '0'}.5`;
  if (key === '.') return fraction === undefined ? `${whole || '0'}.` : text;
  if (fraction !== undefined) return fraction.length === 0 ? `${text}${key}` : text;
  if (text.length >= MAX_SCORE_LENGTH) return text;
  return whole === '0' ? key : `${text}${key}`;
}

export type ScoreCheck = { ok: true; score: number } | { ok: false; message: string };

/** Whether the typed text is a score between 0 and the question's full marks. */
export function checkScore(text: string, maxScore: number): ScoreCheck {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  if (trimmed === '') return { ok: false, message: EMPTY_SCORE_MESSAGE };
  const score = Number(trimmed);
  if (!Number.isFinite(score) || score < 0 || score > maxScore) return { ok: false, message: MARKING_MESSAGES.scoreOutOfRange };
  return { ok: true, score };
}

/** A score as shown: no trailing ".0". */
export function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : String(Math.round(score * 100) / 100);
}

/** The keypad key a keyboard key stands for, or null. */
export function scoreKeyOf(key: string): ScoreKey | null {
  if (/^[0-9]$/.test(key)) return key as ScoreKey;
  if (key === '.' || key === 'Decimal') return '.';
  if (key === 'Backspace') return 'backspace';
  return null;
}
