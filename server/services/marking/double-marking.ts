/**
 * The rules of single and double marking (双评) as a pure decision over the scored rounds of one answer:
 * which rounds must exist and what the final score is. Round 1 alone decides under single marking.
 * Under double marking rounds 1 and 2 (two different teachers) agree when they differ by at most the
 * tolerance; otherwise a third marking (round 3) decides with whichever earlier mark it agrees with;
 * when it agrees with neither, the owner arbitrates (round 4) and that score is final. A problem-paper
 * flag (问题卷) on any mark sends the answer to the owner as well.
 */
import { roundScore } from './objective-scoring';

export type RoundMark = { round: number; score: number | null; problem: boolean; markerId?: number | null };

export type MarkingDecision = {
  /** Rounds that must exist as tasks (scored or not). */
  rounds: number[];
  /** The final score, or null while undecided. */
  final: number | null;
  /** Waiting for (or decided by) the owner's arbitration. */
  arbitration: boolean;
};

export const ARBITRATION_ROUND = 4;

/**
 * `thirdMarkerAvailable`: whether any teacher other than the first two markers may take a third marking;
 * when none may (the owner marked one of the two and nobody else is assigned), disagreeing marks go
 * straight to the owner's arbitration instead of waiting for a third marking nobody can give.
 */
export function decide(
  marks: readonly RoundMark[],
  doubleMarking: boolean,
  tolerance: number,
  thirdMarkerAvailable = true,
): MarkingDecision {
  const byRound = new Map(marks.map((mark) => [mark.round, mark]));
  const scoreOf = (round: number) => byRound.get(round)?.score ?? null;
  const arbiter = scoreOf(ARBITRATION_ROUND);
  const problem = marks.some((mark) => mark.round < ARBITRATION_ROUND && mark.score !== null && mark.problem);
  // Rounding keeps 0.1-step scores from failing a tolerance they meet (0.3 - 0.1 > 0.2 in floats).
  const agree = (a: number, b: number) => roundScore(Math.abs(a - b)) <= tolerance;

  if (!doubleMarking) {
    const first = scoreOf(1);
    if (problem) return { rounds: [1, ARBITRATION_ROUND], final: arbiter, arbitration: true };
    return { rounds: [1], final: first, arbitration: false };
  }

  const a = scoreOf(1);
  const b = scoreOf(2);
  if (problem) {
    return { rounds: [1, 2, ...(byRound.has(3) ? [3] : []), ARBITRATION_ROUND], final: arbiter, arbitration: true };
  }
  if (a === null || b === null) return { rounds: [1, 2], final: null, arbitration: false };
  if (agree(a, b)) return { rounds: [1, 2], final: roundScore((a + b) / 2), arbitration: false };

  const c = scoreOf(3);
  if (c === null) {
    if (!thirdMarkerAvailable) return { rounds: [1, 2, ARBITRATION_ROUND], final: arbiter, arbitration: true };
    return { rounds: [1, 2, 3], final: null, arbitration: false };
  }
  const withA = agree(c, a);
  const withB = agree(c, b);
  if (withA || withB) {
    // Agreeing with both (possible when a and b sit just beyond the tolerance): take the closer one.
    const partner = withA && withB ? (Math.abs(c - a) <= Math.abs(c - b) ? a : b) : withA ? a : b;
    return { rounds: [1, 2, 3], final: roundScore((c + partner) / 2), arbitration: false };
  }
  return { rounds: [1, 2, 3, ARBITRATION_ROUND], final: arbiter, arbitration: true };
}
