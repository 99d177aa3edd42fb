/**
 * Scoring objective questions from the paper's answer key. The bank stores single and multiple choice
 * answers as option letters (['B'], ['A','C']) and judge answers as 对/错; the sheet's bubbles are A–H
 * and T/F (answer-sheet.ts), so the key is mapped to bubble labels first. Pure functions, no IO.
 */
import type { AnswerSheetQuestionType } from '../../../src/shared/contract/answer-sheet';

export type QuestionType = AnswerSheetQuestionType;

const TRUE_WORDS = new Set(['对', '正确', '√', '✓', 'T', 'TRUE', '是']);
const FALSE_WORDS = new Set(['错', '错误', '×', '✗', 'F', 'FALSE', '否']);

export function isManual(type: QuestionType): boolean {
  return type === 'blank' || type === 'subjective';
}

/** The bubble labels of the correct answer; empty when the key cannot be read as labels. */
export function answerKeyLabels(type: QuestionType, answer: readonly string[]): string[] {
  if (type === 'judge') {
    const word = (answer[0] ?? '').trim().toUpperCase();
    if (TRUE_WORDS.has(word)) return ['T'];
    if (FALSE_WORDS.has(word)) return ['F'];
    return [];
  }
  if (type === 'single' || type === 'multiple') {
    const letters = answer.map((a) => a.trim().toUpperCase()).filter((a) => /^[A-H]$/.test(a));
    return [...new Set(letters)].sort();
  }
  return [];
}

/** Rounds to hundredths, so 3 × 0.5 stays 1.5 and 0.1 + 0.2 sums read as they should. */
export function roundScore(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * The score of an objective answer: all correct full marks; for multiple choice a correct, non-empty
 * subset earns `partialCredit` of the score; anything wrong (or nothing marked) earns 0.
 */
export function scoreObjective(
  type: QuestionType,
  key: readonly string[],
  marked: readonly string[],
  maxScore: number,
  partialCredit: number,
): number {
  if (key.length === 0 || marked.length === 0) return 0;
  const chosen = new Set(marked.map((label) => label.toUpperCase()));
  const correct = new Set(key);
  const allCorrect = chosen.size === correct.size && [...chosen].every((label) => correct.has(label));
  if (allCorrect) return maxScore;
  if (type !== 'multiple') return 0;
  const subset = [...chosen].every((label) => correct.has(label));
  return subset ? roundScore(maxScore * partialCredit) : 0;
}
