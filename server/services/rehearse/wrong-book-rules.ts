/**
 * The rules of the wrong-question book as pure functions (no database): when an answer is wrong, and
 * how a student's attempts at a question, first attempts and redos in order, make one book entry with
 * its mastery state. wrong-book.service.ts loads the attempts and writes what these return.
 */
import type { MasteryState } from '../../db/schema-rehearse';

export const DEFAULT_ERROR_CAUSES = ['审题', '计算', '概念', '步骤', '未作答'] as const;
/** A hand-marked question is wrong below this percentage of its full score (100: anything below full). */
export const DEFAULT_SUBJECTIVE_WRONG_PERCENT = 100;

export type BookSettings = { subjectiveWrongPercent: number };

/** One scored answer of a student (a question_scores row with what it refers to). */
export type Attempt = {
  homeworkId: number;
  /** The homework's start date (YYYY-MM-DD): attempts are ordered by it, then by homework id. */
  date: string;
  questionNo: number;
  /** The question on the student's paper. */
  answeredQuestionId: number;
  /** Set when the answer is a redo: the wrong question the set item practises. */
  originQuestionId: number | null;
  subjectId: number;
  score: number;
  fullScore: number;
  /** Hand-marked (blank / subjective): the school's line applies. */
  manual: boolean;
  /** question_scores.source: a page accepted as missing is not a wrong answer (nothing was answered). */
  source: string;
  errorCause: string | null;
};

export type BookEntry = {
  questionId: number;
  subjectId: number;
  firstWrongOn: string;
  lastWrongOn: string;
  homeworkIds: number[];
  lastHomeworkId: number;
  lastQuestionNo: number;
  lastAnsweredQuestionId: number;
  lastScore: number;
  fullScore: number;
  timesWrong: number;
  redoCount: number;
  mastery: MasteryState;
  lastRedoHomeworkId: number | null;
  errorCause: string | null;
};

/** Objective questions: wrong below the full score (a partly right multiple choice is wrong). */
export function isWrong(score: number, fullScore: number, manual: boolean, settings: BookSettings): boolean {
  if (fullScore <= 0) return false;
  if (!manual) return score < fullScore;
  return (score / fullScore) * 100 < settings.subjectiveWrongPercent - 1e-9;
}

const byTime = (a: Attempt, b: Attempt) =>
  a.date.localeCompare(b.date) || a.homeworkId - b.homeworkId || a.questionNo - b.questionNo;

/**
 * One student's book from all their attempts. A question enters the book when a first attempt is wrong.
 * A redo (an answer to a set item whose origin is that question) moves its mastery: right → 重练对 1;
 * right again in a LATER set (another homework) on a question not answered right in an earlier set →
 * 已掌握 (whatever order that set has its questions in: the original repeated first does not hide a
 * similar question right after it), on the same question only → 重练对 2 (still needs a different
 * one); a wrong redo → 待重练 again.
 * A first attempt wrong again also sends it back to 待重练. Redos of a question never wrong for this
 * student (a whole-class item) leave the book alone.
 */
export function buildBook(attempts: readonly Attempt[], settings: BookSettings): BookEntry[] {
  const sorted = attempts.filter((a) => a.source !== 'missing').sort(byTime);
  const entries = new Map<number, BookEntry>();
  /** Right redos counting toward mastery, per origin question: (homework, answered question). */
  const rights = new Map<number, { homeworkId: number; questionId: number }[]>();

  for (const attempt of sorted) {
    const target = attempt.originQuestionId ?? attempt.answeredQuestionId;
    const redo = attempt.originQuestionId !== null;
    const wrong = isWrong(attempt.score, attempt.fullScore, attempt.manual, settings);
    let entry = entries.get(target);
    if (redo) {
      if (!entry) continue;
      entry.redoCount += 1;
    }
    if (wrong) {
      if (!entry) {
        entry = {
          questionId: target,
          subjectId: attempt.subjectId,
          firstWrongOn: attempt.date,
          lastWrongOn: attempt.date,
          homeworkIds: [],
          lastHomeworkId: attempt.homeworkId,
          lastQuestionNo: attempt.questionNo,
          lastAnsweredQuestionId: attempt.answeredQuestionId,
          lastScore: attempt.score,
          fullScore: attempt.fullScore,
          timesWrong: 0,
          redoCount: 0,
          mastery: 'pending',
          lastRedoHomeworkId: null,
          errorCause: null,
        };
        entries.set(target, entry);
      }
      entry.timesWrong += 1;
      entry.lastWrongOn = attempt.date;
      if (!entry.homeworkIds.includes(attempt.homeworkId)) entry.homeworkIds.push(attempt.homeworkId);
      entry.lastHomeworkId = attempt.homeworkId;
      entry.lastQuestionNo = attempt.questionNo;
      entry.lastAnsweredQuestionId = attempt.answeredQuestionId;
      entry.lastScore = attempt.score;
      entry.fullScore = attempt.fullScore;
      entry.errorCause = attempt.errorCause;
      entry.mastery = 'pending';
      entry.lastRedoHomeworkId = null;
      rights.set(target, []);
      continue;
    }
    if (!redo || !entry) continue;
    const done = rights.get(target) ?? [];
    // Right redos in earlier sets than this one: a step needs spacing.
    const earlier = done.filter((d) => d.homeworkId !== attempt.homeworkId);
    if (entry.mastery === 'mastered') continue;
    // Every right redo is remembered, so a later set must bring a question none of them was.
    done.push({ homeworkId: attempt.homeworkId, questionId: attempt.answeredQuestionId });
    rights.set(target, done);
    if (done.length === 1) {
      entry.mastery = 'redo1';
      entry.lastRedoHomeworkId = attempt.homeworkId;
    } else if (earlier.length > 0) {
      // A different question right in a later set masters it, whatever else this set repeats; the
      // same question again is 重练对 2. Only this set's rights so far: not spaced, no step.
      entry.mastery = earlier.some((d) => d.questionId === attempt.answeredQuestionId)
        ? entry.mastery === 'redo1'
          ? 'redo2'
          : entry.mastery
        : 'mastered';
      entry.lastRedoHomeworkId = attempt.homeworkId;
    }
  }
  return [...entries.values()];
}
