import { describe, expect, it } from 'vitest';
import { type Attempt, buildBook, isWrong } from '../../../server/services/rehearse/wrong-book-rules';

const settings = { subjectiveWrongPercent: 100 };
let seq = 0;
/** An attempt at question `q` in homework `hw` on `date`; a redo when `origin` is given. */
function at(hw: number, date: string, q: number, score: number, extra: Partial<Attempt> = {}): Attempt {
  seq += 1;
  return {
    homeworkId: hw,
    date,
    questionNo: seq,
    answeredQuestionId: q,
    originQuestionId: null,
    subjectId: 1,
    score,
    fullScore: 5,
    manual: false,
    source: 'auto',
    errorCause: null,
    ...extra,
  };
}
const redo = (hw: number, date: string, q: number, origin: number, score: number) =>
  at(hw, date, q, score, { originQuestionId: origin });

describe('isWrong', () => {
  it('counts an objective answer below full as wrong, a partly right multiple choice included', () => {
    expect(isWrong(5, 5, false, settings)).toBe(false);
    expect(isWrong(2.5, 5, false, settings)).toBe(true);
    expect(isWrong(0, 5, false, settings)).toBe(true);
  });
  it('applies the school line to hand-marked questions only', () => {
    const line = { subjectiveWrongPercent: 60 };
    expect(isWrong(6, 10, true, line)).toBe(false);
    expect(isWrong(5.9, 10, true, line)).toBe(true);
    expect(isWrong(9, 10, false, line)).toBe(true);
    expect(isWrong(9.5, 10, true, settings)).toBe(true);
  });
  it('never calls a question worth nothing wrong', () => {
    expect(isWrong(0, 0, false, settings)).toBe(false);
  });
});

describe('buildBook', () => {
  it('books a wrong first attempt with when, where, how often and the latest answer', () => {
    const book = buildBook(
      [at(2, '2026-10-08', 100, 0, { errorCause: '计算' }), at(1, '2026-10-01', 100, 2), at(1, '2026-10-01', 101, 5)],
      settings,
    );
    expect(book).toHaveLength(1);
    expect(book[0]).toMatchObject({
      questionId: 100,
      firstWrongOn: '2026-10-01',
      lastWrongOn: '2026-10-08',
      homeworkIds: [1, 2],
      lastHomeworkId: 2,
      lastScore: 0,
      timesWrong: 2,
      mastery: 'pending',
      errorCause: '计算',
      redoCount: 0,
    });
  });

  it('leaves out a page accepted as missing (nothing was answered) and right answers', () => {
    expect(buildBook([at(1, '2026-10-01', 100, 0, { source: 'missing' }), at(1, '2026-10-01', 101, 5)], settings)).toEqual([]);
  });

  it('moves 待重练 → 重练对 1 → 已掌握 with a later set and a different similar question', () => {
    const first = buildBook([at(1, '2026-10-01', 100, 0), redo(10, '2026-10-10', 200, 100, 5)], settings);
    expect(first[0]).toMatchObject({ mastery: 'redo1', lastRedoHomeworkId: 10, redoCount: 1, timesWrong: 1 });
    const second = buildBook(
      [at(1, '2026-10-01', 100, 0), redo(10, '2026-10-10', 200, 100, 5), redo(11, '2026-10-17', 201, 100, 5)],
      settings,
    );
    expect(second[0]).toMatchObject({ mastery: 'mastered', lastRedoHomeworkId: 11, redoCount: 2 });
  });

  it('takes no second step within the same set', () => {
    const book = buildBook(
      [at(1, '2026-10-01', 100, 0), redo(10, '2026-10-10', 200, 100, 5), redo(10, '2026-10-10', 201, 100, 5)],
      settings,
    );
    expect(book[0]?.mastery).toBe('redo1');
  });

  it('stops at 重练对 2 when the later redo repeats the same question, and masters on a different one', () => {
    const same = [at(1, '2026-10-01', 100, 0), redo(10, '2026-10-10', 100, 100, 5), redo(11, '2026-10-17', 100, 100, 5)];
    expect(buildBook(same, settings)[0]?.mastery).toBe('redo2');
    expect(buildBook([...same, redo(12, '2026-10-24', 202, 100, 5)], settings)[0]?.mastery).toBe('mastered');
  });

  it('masters on a different question in a later set even when that set repeats the original first', () => {
    // Each set has the original (100) first, then a similar question: 200 in the first set, 201 in the second.
    const firstSet = [at(1, '2026-10-01', 100, 0), redo(10, '2026-10-10', 100, 100, 5), redo(10, '2026-10-10', 200, 100, 5)];
    expect(buildBook(firstSet, settings)[0]?.mastery).toBe('redo1');
    const secondSet = [...firstSet, redo(11, '2026-10-17', 100, 100, 5), redo(11, '2026-10-17', 201, 100, 5)];
    expect(buildBook(secondSet, settings)[0]).toMatchObject({ mastery: 'mastered', redoCount: 4 });
    // The same later set with only the original right stays at 重练对 2; its similar question wrong sends it back.
    const repeatOnly = [...firstSet, redo(11, '2026-10-17', 100, 100, 5)];
    expect(buildBook(repeatOnly, settings)[0]?.mastery).toBe('redo2');
    expect(buildBook([...repeatOnly, redo(11, '2026-10-17', 201, 100, 0)], settings)[0]?.mastery).toBe('pending');
    // A similar question right in the first set again (200) is no different question.
    expect(buildBook([...firstSet, redo(11, '2026-10-17', 200, 100, 5)], settings)[0]?.mastery).toBe('redo2');
  });

  it('sends a wrong redo back to 待重练 and counts it as wrong', () => {
    const book = buildBook(
      [at(1, '2026-10-01', 100, 0), redo(10, '2026-10-10', 200, 100, 5), redo(11, '2026-10-17', 201, 100, 1)],
      settings,
    );
    expect(book[0]).toMatchObject({
      mastery: 'pending',
      timesWrong: 2,
      lastHomeworkId: 11,
      lastAnsweredQuestionId: 201,
      lastRedoHomeworkId: null,
    });
    // After going back, the next right redo starts again at 重练对 1.
    const again = buildBook(
      [
        at(1, '2026-10-01', 100, 0),
        redo(10, '2026-10-10', 200, 100, 5),
        redo(11, '2026-10-17', 201, 100, 1),
        redo(12, '2026-10-24', 202, 100, 5),
      ],
      settings,
    );
    expect(again[0]?.mastery).toBe('redo1');
  });

  it('sends a mastered question back when it is wrong again in ordinary homework', () => {
    const book = buildBook(
      [
        at(1, '2026-10-01', 100, 0),
        redo(10, '2026-10-10', 200, 100, 5),
        redo(11, '2026-10-17', 201, 100, 5),
        at(20, '2026-11-01', 100, 0),
      ],
      settings,
    );
    expect(book[0]).toMatchObject({ mastery: 'pending', timesWrong: 2 });
  });

  it('ignores redos of a question the student never got wrong (a whole-class item)', () => {
    expect(buildBook([redo(10, '2026-10-10', 200, 100, 0)], settings)).toEqual([]);
  });

  it('orders attempts by date, not by the order they arrive', () => {
    const book = buildBook([redo(10, '2026-10-10', 200, 100, 5), at(1, '2026-10-01', 100, 0)], settings);
    expect(book[0]?.mastery).toBe('redo1');
  });
});
