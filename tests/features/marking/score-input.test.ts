import { describe, expect, it } from 'vitest';
import { checkScore, formatScore, pressScoreKey, scoreKeyOf, type ScoreKey } from '../../../src/features/marking/score-input';

const type = (keys: ScoreKey[], from = '') => keys.reduce(pressScoreKey, from);

describe('score input', () => {
  it('builds a score from digits, a decimal point and the half-point key', () => {
    expect(type(['1', '2'])).toBe('12');
    expect(type(['0', '7'])).toBe('7');
    expect(type(['8', '.5'])).toBe('8.5');
    expect(type(['.5'])).toBe('0.5');
    expect(type(['3', '.', '2', '9'])).toBe('3.2');
    expect(type(['3', '.', '.'])).toBe('3.');
    expect(type(['1', '2', 'backspace'])).toBe('1');
    expect(type(['9', 'clear'])).toBe('');
  });

  it('accepts 0 up to the full marks and says why anything else is refused', () => {
    expect(checkScore('8', 10)).toEqual({ ok: true, score: 8 });
    expect(checkScore('10', 10)).toEqual({ ok: true, score: 10 });
    expect(checkScore('0', 10)).toEqual({ ok: true, score: 0 });
    expect(checkScore('4.', 10)).toEqual({ ok: true, score: 4 });
    expect(checkScore('10.5', 10)).toEqual({ ok: false, message: '分数超出本题分值范围' });
    expect(checkScore('', 10)).toEqual({ ok: false, message: '请输入分数' });
  });

  it('maps keyboard keys to keypad keys', () => {
    expect(scoreKeyOf('7')).toBe('7');
    expect(scoreKeyOf('.')).toBe('.');
    expect(scoreKeyOf('Backspace')).toBe('backspace');
    expect(scoreKeyOf('a')).toBeNull();
    expect(scoreKeyOf('Enter')).toBeNull();
  });

  it('shows scores without a trailing .0', () => {
    expect(formatScore(8)).toBe('8');
    expect(formatScore(7.5)).toBe('7.5');
  });
});
