import { describe, expect, it } from 'vitest';
import {
  type CoError,
  coErrorKey,
  MAX_SET_QUESTIONS,
  pickClassSet,
  pickStudentSet,
  type PickerQuestion,
  type PickerQuestionType,
  swapQuestion,
  type WrongQuestion,
} from '../../../server/services/rehearse-sets/similar-picker';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';

const TYPES: PickerQuestionType[] = ['single', 'multiple', 'judge', 'blank', 'subjective'];

/** A random bank of 400 questions over 12 knowledge points, from a seed. */
function randomBank(seed: number): Map<number, PickerQuestion> {
  const random = seededRandom(seed);
  const bank = new Map<number, PickerQuestion>();
  for (let id = 1; id <= 400; id += 1) {
    const first = 1 + Math.floor(random() * 12);
    const second = random() < 0.4 ? 1 + Math.floor(random() * 12) : first;
    bank.set(id, {
      id,
      type: TYPES[Math.floor(random() * TYPES.length)]!,
      difficulty: 1 + Math.floor(random() * 5),
      knowledgePointIds: [...new Set([first, second])],
    });
  }
  return bank;
}

function randomStudent(seed: number, bank: Map<number, PickerQuestion>) {
  const random = seededRandom(seed);
  const seen = new Set<number>();
  while (seen.size < 150) seen.add(1 + Math.floor(random() * bank.size));
  const wrong: WrongQuestion[] = [...seen]
    .filter(() => random() < 0.3)
    .map((questionId) => ({
      questionId,
      lastWrongAt: Math.floor(random() * 1e9),
      timesWrong: 1 + Math.floor(random() * 3),
      chosenLabels: random() < 0.5 ? ['B'] : null,
    }));
  return { studentId: seed, wrong, seen };
}

describe('similar-question choice', () => {
  const options = { count: 6, order: 'recent' as const, similarPerQuestion: 2, seed: 42 };

  for (const seed of [1, 2, 3, 17, 99]) {
    it(`keeps every rule for a random bank and student (seed ${seed})`, () => {
      const bank = randomBank(seed);
      const student = randomStudent(seed + 1000, bank);
      const items = pickStudentSet(bank, student, { ...options, seed }, new Map());
      expect(items.length).toBeGreaterThan(0);
      expect(items.length).toBeLessThanOrEqual(MAX_SET_QUESTIONS);
      // None repeated.
      expect(new Set(items.map((i) => i.questionId)).size).toBe(items.length);
      // Positions run 1..n.
      expect(items.map((i) => i.position)).toEqual(items.map((_, i) => i + 1));
      for (const item of items) {
        const origin = bank.get(item.originQuestionId)!;
        const pick = bank.get(item.questionId)!;
        if (item.kind === 'own') {
          expect(item.questionId).toBe(item.originQuestionId);
          expect(student.wrong.some((w) => w.questionId === item.questionId)).toBe(true);
          continue;
        }
        // Same knowledge point, difficulty within one step, never seen.
        expect(pick.knowledgePointIds.some((id) => origin.knowledgePointIds.includes(id))).toBe(true);
        expect(item.reason.knowledgePointIds.length).toBeGreaterThan(0);
        expect(Math.abs(pick.difficulty - origin.difficulty)).toBeLessThanOrEqual(1);
        expect(student.seen.has(item.questionId)).toBe(false);
        expect(item.reason.neverSeen).toBe(true);
        for (const alternative of item.alternatives) {
          expect(student.seen.has(alternative)).toBe(false);
          expect(items.some((i) => i.questionId === alternative)).toBe(false);
        }
      }
    });
  }

  it('gives the same set for the same seed, and another order of ties for another seed', () => {
    const bank = randomBank(5);
    const student = randomStudent(6, bank);
    const first = pickStudentSet(bank, student, options, new Map());
    expect(pickStudentSet(bank, student, options, new Map())).toEqual(first);
    const others = [7, 8, 9, 10].map((seed) => pickStudentSet(bank, student, { ...options, seed }, new Map()));
    expect(others.some((set) => JSON.stringify(set) !== JSON.stringify(first))).toBe(true);
  });

  it('takes the most recent or the most missed wrong questions, as the teacher chooses', () => {
    const bank = randomBank(11);
    const wrong: WrongQuestion[] = [
      { questionId: 1, lastWrongAt: 100, timesWrong: 5, chosenLabels: null },
      { questionId: 2, lastWrongAt: 300, timesWrong: 1, chosenLabels: null },
      { questionId: 3, lastWrongAt: 200, timesWrong: 3, chosenLabels: null },
    ];
    const student = { studentId: 1, wrong, seen: new Set([1, 2, 3]) };
    const own = (order: 'recent' | 'most') =>
      pickStudentSet(bank, student, { count: 2, order, similarPerQuestion: 0, seed: 1 }, new Map()).map((i) => i.questionId);
    expect(own('recent')).toEqual([2, 3]);
    expect(own('most')).toEqual([1, 3]);
  });

  it('says when the bank has no similar question left, and when there is no co-error data for the option chosen', () => {
    const bank = new Map<number, PickerQuestion>([
      [1, { id: 1, type: 'single', difficulty: 3, knowledgePointIds: [1] }],
      [2, { id: 2, type: 'single', difficulty: 5, knowledgePointIds: [1] }],
      [3, { id: 3, type: 'single', difficulty: 3, knowledgePointIds: [2] }],
      [4, { id: 4, type: 'single', difficulty: 2, knowledgePointIds: [1] }],
    ]);
    const wrong = [{ questionId: 1, lastWrongAt: 1, timesWrong: 1, chosenLabels: ['C'] }];
    const withSimilar = pickStudentSet(bank, { studentId: 1, wrong, seen: new Set([1]) }, options, new Map([[1, 0.4]]));
    expect(withSimilar.map((i) => i.questionId)).toEqual([1, 4]);
    expect(withSimilar[1]!.reason).toMatchObject({
      distractor: 'noData',
      originRate: 0.4,
      pickRate: null,
      chosenLabels: ['C'],
    });
    const none = pickStudentSet(bank, { studentId: 1, wrong, seen: new Set([1, 4]) }, options, new Map());
    expect(none).toHaveLength(1);
    expect(none[0]!.reason.noSimilar).toBe(true);
  });

  describe('the same mistake (co-error of the option chosen)', () => {
    // Original 1 (a single choice, 知识点 1); three candidates alike on every rule, and 5 with two shared
    // knowledge points (ahead of them without co-error data).
    const bank = new Map<number, PickerQuestion>([
      [1, { id: 1, type: 'single', difficulty: 3, knowledgePointIds: [1, 2] }],
      [2, { id: 2, type: 'single', difficulty: 3, knowledgePointIds: [1] }],
      [3, { id: 3, type: 'single', difficulty: 3, knowledgePointIds: [1] }],
      [4, { id: 4, type: 'single', difficulty: 3, knowledgePointIds: [1] }],
      [5, { id: 5, type: 'single', difficulty: 3, knowledgePointIds: [1, 2] }],
    ]);
    const student = {
      studentId: 7,
      wrong: [{ questionId: 1, lastWrongAt: 1, timesWrong: 1, chosenLabels: ['B'] }],
      seen: new Set([1]),
    };
    const one = { count: 1, order: 'recent' as const, similarPerQuestion: 1, seed: 5 };
    const stat = (chosenWrong: number, chosenAnswered: number, otherWrong: number, otherAnswered: number): CoError => ({
      chosenWrong,
      chosenAnswered,
      otherWrong,
      otherAnswered,
    });
    const pickWith = (stats: Map<string, CoError>, seed = 5) =>
      pickStudentSet(bank, student, { ...one, seed }, new Map(), stats)[1]!;

    it('without data keeps the usual order (more shared knowledge points first)', () => {
      expect(pickWith(new Map()).questionId).toBe(5);
      expect(pickWith(new Map()).reason.distractor).toBe('noData');
    });

    it('picks the candidate that those who chose the same option got wrong more often than the others', () => {
      // Those who chose B on 1: 4 of 5 wrong on 3 (others 1 of 10); on 4 the lift is smaller; on 5 negative.
      const stats = new Map([
        [coErrorKey(1, ['B'], 3), stat(4, 5, 1, 10)],
        [coErrorKey(1, ['B'], 4), stat(2, 5, 1, 10)],
        [coErrorKey(1, ['B'], 5), stat(0, 5, 5, 10)],
      ]);
      for (const seed of [1, 5, 99]) {
        const pick = pickWith(stats, seed);
        expect(pick.questionId).toBe(3);
        expect(pick.reason).toMatchObject({
          distractor: 'coError',
          coError: { chosenRate: 0.8, otherRate: 0.1, chosen: 5, other: 10 },
        });
        // The runners-up: 4 (a smaller lift), then the usual order (5 ahead of 2).
        expect(pick.alternatives).toEqual([4, 5, 2]);
      }
    });

    it('uses only the option the student chose, and needs both groups', () => {
      const otherOption = new Map([[coErrorKey(1, ['C'], 3), stat(4, 5, 1, 10)]]);
      expect(pickWith(otherOption).questionId).toBe(5);
      const nobodyElse = new Map([[coErrorKey(1, ['B'], 3), stat(4, 5, 0, 0)]]);
      expect(pickWith(nobodyElse).questionId).toBe(5);
    });

    it('never breaks a hard rule for a lift (seen, difficulty, knowledge point)', () => {
      const far = new Map(bank);
      far.set(6, { id: 6, type: 'single', difficulty: 5, knowledgePointIds: [1] });
      far.set(8, { id: 8, type: 'single', difficulty: 3, knowledgePointIds: [9] });
      const stats = new Map([
        [coErrorKey(1, ['B'], 6), stat(5, 5, 0, 10)],
        [coErrorKey(1, ['B'], 8), stat(5, 5, 0, 10)],
        [coErrorKey(1, ['B'], 3), stat(5, 5, 0, 10)],
        [coErrorKey(1, ['B'], 4), stat(3, 5, 0, 10)],
      ]);
      const items = pickStudentSet(far, { ...student, seen: new Set([1, 3]) }, one, new Map(), stats);
      expect(items[1]!.questionId).toBe(4);
    });

    it('a swap states the co-error of the question swapped in', () => {
      const stats = new Map([
        [coErrorKey(1, ['B'], 3), stat(4, 5, 1, 10)],
        [coErrorKey(1, ['B'], 4), stat(2, 5, 1, 10)],
      ]);
      const items = pickStudentSet(bank, student, one, new Map(), stats);
      const swapped = swapQuestion(bank, items, student, 2, 4, new Map(), stats);
      expect(typeof swapped).not.toBe('string');
      expect((swapped as typeof items)[1]!.reason).toMatchObject({ distractor: 'coError', coError: { chosenRate: 0.4 } });
      const toPlain = swapQuestion(bank, items, student, 2, 2, new Map(), stats);
      expect((toPlain as typeof items)[1]!.reason.distractor).toBe('noData');
      expect((toPlain as typeof items)[1]!.reason.coError).toBeUndefined();
    });
  });

  it('prefers more shared knowledge points, closer difficulty and the same type', () => {
    const bank = new Map<number, PickerQuestion>([
      [1, { id: 1, type: 'single', difficulty: 3, knowledgePointIds: [1, 2] }],
      [2, { id: 2, type: 'blank', difficulty: 3, knowledgePointIds: [1] }],
      [3, { id: 3, type: 'single', difficulty: 4, knowledgePointIds: [1, 2] }],
      [4, { id: 4, type: 'single', difficulty: 3, knowledgePointIds: [1, 2] }],
      [5, { id: 5, type: 'judge', difficulty: 3, knowledgePointIds: [1, 2] }],
    ]);
    const wrong = [{ questionId: 1, lastWrongAt: 1, timesWrong: 1, chosenLabels: ['A'] }];
    const items = pickStudentSet(
      bank,
      { studentId: 1, wrong, seen: new Set([1]) },
      { ...options, similarPerQuestion: 1 },
      new Map(),
    );
    expect(items[1]!.questionId).toBe(4);
    expect(items[1]!.alternatives).toEqual([5, 3, 2]);
  });

  it('swaps only for a valid candidate', () => {
    const bank = new Map<number, PickerQuestion>([
      [1, { id: 1, type: 'single', difficulty: 3, knowledgePointIds: [1] }],
      [2, { id: 2, type: 'single', difficulty: 3, knowledgePointIds: [1] }],
      [3, { id: 3, type: 'single', difficulty: 3, knowledgePointIds: [1] }],
      [4, { id: 4, type: 'single', difficulty: 5, knowledgePointIds: [1] }],
      [5, { id: 5, type: 'single', difficulty: 3, knowledgePointIds: [9] }],
      [6, { id: 6, type: 'single', difficulty: 3, knowledgePointIds: [1] }],
    ]);
    const student = {
      studentId: 1,
      wrong: [{ questionId: 1, lastWrongAt: 1, timesWrong: 1, chosenLabels: null }],
      seen: new Set([1, 6]),
    };
    const items = pickStudentSet(bank, student, { ...options, similarPerQuestion: 1 }, new Map());
    const current = items[1]!.questionId;
    const other = current === 2 ? 3 : 2;
    const swapped = swapQuestion(bank, items, student, 2, other, new Map());
    expect(typeof swapped).not.toBe('string');
    expect((swapped as typeof items)[1]!.questionId).toBe(other);
    expect(swapQuestion(bank, items, student, 1, other, new Map())).toBe('只能替换同类题');
    expect(swapQuestion(bank, items, student, 2, 4, new Map())).toBe('难度与原题相差超过一级');
    expect(swapQuestion(bank, items, student, 2, 5, new Map())).toBe('与原题没有相同的知识点');
    expect(swapQuestion(bank, items, student, 2, 6, new Map())).toBe('该生做过这道题');
    expect(swapQuestion(bank, items, student, 2, 1, new Map())).toBe('该题已在本套题中');
  });

  it('takes the class questions below the line, lowest first', () => {
    const stats = [
      { questionId: 1, rate: 0.7, answered: 40, lastAt: 1 },
      { questionId: 2, rate: 0.3, answered: 40, lastAt: 1 },
      { questionId: 3, rate: 0.5, answered: 40, lastAt: 1 },
      { questionId: 4, rate: 0.1, answered: 0, lastAt: 1 },
    ];
    expect(pickClassSet(stats, 0.6).map((s) => s.questionId)).toEqual([2, 3]);
  });

  it('takes the questions queued with 加入错题重练 first, whatever their 得分率, then those below the line', () => {
    const stats = [
      { questionId: 1, rate: 0.9, answered: 40, lastAt: 1 },
      { questionId: 2, rate: 0.3, answered: 40, lastAt: 1 },
      { questionId: 3, rate: 0.5, answered: 40, lastAt: 1 },
      { questionId: 5, rate: 0.8, answered: 40, lastAt: 1 },
    ];
    expect(pickClassSet(stats, 0.6, new Set([1, 3])).map((s) => s.questionId)).toEqual([3, 1, 2]);
  });
});
