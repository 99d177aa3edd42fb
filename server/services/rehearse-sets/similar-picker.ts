/**
 * Choosing a personalised re-practice set (举一反三): for one student, their own wrong questions (the N
 * most recent or most missed) each followed by similar questions (同类题) from the bank, and for a class
 * its common wrong questions (得分率 below a line). Pure and deterministic: the same input and seed give
 * the same set, so a preview, a swap and the set finally made agree. No IO; the set service loads the
 * bank, the wrong questions and the rates.
 *
 * Rules for a similar question: same subject (the bank given is the subject's), at least one knowledge
 * point shared with the original, difficulty within one step, never in any homework the student had,
 * never twice in one set. Among those: more shared knowledge points first, then closer difficulty, then
 * the same type, then (for a choice question the student got wrong) a choice question; ties are broken
 * by a hash of (seed, student, question), not by bank order.
 *
 * The same mistake (干扰项): the bank does not record which mistake an option targets, so the school's own
 * scores stand in. For a choice question the student got wrong by choosing X, a candidate that the
 * students who also chose X got wrong more often than the other students did (a positive co-error lift,
 * `CoErrorStats`) comes first, highest lift first. Candidates without such data keep the order above.
 * The hard rules are unchanged: the lift only orders questions that already pass them.
 */

export type PickerQuestionType = 'single' | 'multiple' | 'judge' | 'blank' | 'subjective';

export type PickerQuestion = {
  id: number;
  type: PickerQuestionType;
  /** 1 (容易) .. 5 (困难) */
  difficulty: number;
  knowledgePointIds: readonly number[];
};

export type WrongQuestion = {
  questionId: number;
  /** When it was last answered wrong (ms since the epoch). */
  lastWrongAt: number;
  timesWrong: number;
  /** The options the student chose the last time (choice questions), when known. */
  chosenLabels: readonly string[] | null;
};

export type PickOrder = 'recent' | 'most';

/**
 * Co-error of a candidate among the school's students who answered both the original and the candidate:
 * how often those who chose the same wrong option(s) on the original got the candidate wrong, and how
 * often the others did.
 */
export type CoError = { chosenWrong: number; chosenAnswered: number; otherWrong: number; otherAnswered: number };

/** Co-errors by coErrorKey(original, chosen labels, candidate). */
export type CoErrorStats = ReadonlyMap<string, CoError>;

/** The key of a co-error: the original, the chosen labels (sorted, joined) and the candidate. */
export function coErrorKey(originId: number, labels: readonly string[], candidateId: number): string {
  return `${originId}|${[...labels].sort().join('')}|${candidateId}`;
}

/** The lift: wrong rate of those who chose the same option minus that of the others; null without both groups. */
export function coErrorLift(stat: CoError | undefined): number | null {
  if (!stat || stat.chosenAnswered === 0 || stat.otherAnswered === 0) return null;
  return stat.chosenWrong / stat.chosenAnswered - stat.otherWrong / stat.otherAnswered;
}

export type PickOptions = {
  /** Own wrong questions per student. */
  count: number;
  order: PickOrder;
  /** Similar questions per wrong question. */
  similarPerQuestion: number;
  seed: number;
};

/** Most questions in one set (a sheet stays one or two pages). */
export const MAX_SET_QUESTIONS = 20;
/** Alternatives offered for swapping a similar question. */
export const MAX_ALTERNATIVES = 5;

export type PickReason = {
  /** The shared knowledge points (similar) or the question's own (own wrong question). */
  knowledgePointIds: number[];
  type: PickerQuestionType;
  difficulty: number;
  originDifficulty: number;
  /** 得分率 (0..1) of the original among the class's scores, null when nobody answered it. */
  originRate: number | null;
  /** 得分率 of the picked question among the class's scores, null when nobody answered it. */
  pickRate: number | null;
  /** The student never had the picked question in any homework (always true for a similar pick). */
  neverSeen: boolean;
  timesWrong: number;
  chosenLabels: string[] | null;
  /**
   * How the mistake of a wrong choice question was matched; null for other questions. coError: the
   * students who chose the same option on the original also got this one wrong more often (see
   * `coError`); noData: no such data, picked by knowledge point and type.
   */
  distractor: 'coError' | 'noData' | null;
  /** The co-error rates behind a coError pick (0..1). */
  coError?: { chosenRate: number; otherRate: number; chosen: number; other: number };
  /** A similar question was wanted but the bank has none left for this student. */
  noSimilar: boolean;
  /** Class set: queued with 加入错题重练 from the commentary (taken whatever its 得分率). */
  queued?: boolean;
};

export type PickedItem = {
  /** 1-based position in the set (the question number on the paper). */
  position: number;
  questionId: number;
  originQuestionId: number;
  kind: 'own' | 'similar';
  reason: PickReason;
  /** Other valid similar questions for a swap, best first (similar picks only). */
  alternatives: number[];
};

/** A 32-bit hash of some integers (murmur-style finaliser), for seeded tie-breaking. */
export function mixHash(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) {
    h = Math.imul(h ^ (value | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

const isChoice = (type: PickerQuestionType) => type === 'single' || type === 'multiple';

/** The student's own wrong questions to redo, in the teacher's order. */
export function chooseWrong(wrong: readonly WrongQuestion[], order: PickOrder, count: number): WrongQuestion[] {
  const sorted = [...wrong].sort((a, b) =>
    order === 'recent'
      ? b.lastWrongAt - a.lastWrongAt || b.timesWrong - a.timesWrong || a.questionId - b.questionId
      : b.timesWrong - a.timesWrong || b.lastWrongAt - a.lastWrongAt || a.questionId - b.questionId,
  );
  return sorted.slice(0, Math.max(0, count));
}

/**
 * Every valid similar question for an original, best first: shares a knowledge point, difficulty within
 * one step, not seen by the student, not in `exclude`.
 */
export function rankSimilar(
  bank: ReadonlyMap<number, PickerQuestion>,
  origin: PickerQuestion,
  wrongChoice: boolean,
  seen: ReadonlySet<number>,
  exclude: ReadonlySet<number>,
  seed: number,
  studentId: number,
  lift: (candidateId: number) => number | null = () => null,
): PickerQuestion[] {
  const points = new Set(origin.knowledgePointIds);
  const scored: {
    q: PickerQuestion;
    lift: number;
    shared: number;
    gap: number;
    sameType: number;
    choice: number;
    tie: number;
  }[] = [];
  for (const q of bank.values()) {
    if (q.id === origin.id || seen.has(q.id) || exclude.has(q.id)) continue;
    const gap = Math.abs(q.difficulty - origin.difficulty);
    if (gap > 1) continue;
    const shared = q.knowledgePointIds.filter((id) => points.has(id)).length;
    if (shared === 0) continue;
    const l = wrongChoice ? lift(q.id) : null;
    scored.push({
      q,
      lift: l !== null && l > 0 ? l : 0,
      shared,
      gap,
      sameType: q.type === origin.type ? 1 : 0,
      choice: wrongChoice && isChoice(q.type) ? 1 : 0,
      tie: mixHash(seed, studentId, q.id),
    });
  }
  scored.sort(
    (a, b) =>
      Number(b.lift > 0) - Number(a.lift > 0) ||
      b.lift - a.lift ||
      b.shared - a.shared ||
      a.gap - b.gap ||
      b.sameType - a.sameType ||
      b.choice - a.choice ||
      a.tie - b.tie ||
      a.q.id - b.q.id,
  );
  return scored.map((s) => s.q);
}

export type StudentSetInput = {
  studentId: number;
  wrong: readonly WrongQuestion[];
  /** Every question the student had in any homework. */
  seen: ReadonlySet<number>;
};

/**
 * One student's set: each chosen wrong question, then its similar questions, at most
 * MAX_SET_QUESTIONS in all. `rates` are the class's 得分率 per bank question.
 */
export function pickStudentSet(
  bank: ReadonlyMap<number, PickerQuestion>,
  input: StudentSetInput,
  options: PickOptions,
  rates: ReadonlyMap<number, number>,
  coErrors: CoErrorStats = new Map(),
): PickedItem[] {
  const items: PickedItem[] = [];
  const used = new Set<number>();
  const rate = (id: number) => rates.get(id) ?? null;
  for (const wrong of chooseWrong(input.wrong, options.order, options.count)) {
    const origin = bank.get(wrong.questionId);
    if (!origin || used.has(origin.id)) continue;
    if (items.length >= MAX_SET_QUESTIONS) break;
    const wrongChoice = isChoice(origin.type) && (wrong.chosenLabels?.length ?? 0) > 0;
    const base = {
      originDifficulty: origin.difficulty,
      originRate: rate(origin.id),
      timesWrong: wrong.timesWrong,
      chosenLabels: wrong.chosenLabels ? [...wrong.chosenLabels] : null,
    };
    const labels = wrong.chosenLabels ?? [];
    const statOf = (candidateId: number) => coErrors.get(coErrorKey(origin.id, labels, candidateId));
    used.add(origin.id);
    const ranked =
      options.similarPerQuestion > 0
        ? rankSimilar(bank, origin, wrongChoice, input.seen, used, options.seed, input.studentId, (id) => coErrorLift(statOf(id)))
        : [];
    items.push({
      position: items.length + 1,
      questionId: origin.id,
      originQuestionId: origin.id,
      kind: 'own',
      reason: {
        ...base,
        knowledgePointIds: [...origin.knowledgePointIds],
        type: origin.type,
        difficulty: origin.difficulty,
        pickRate: rate(origin.id),
        neverSeen: false,
        distractor: null,
        noSimilar: options.similarPerQuestion > 0 && ranked.length === 0,
      },
      alternatives: [],
    });
    const picks = ranked.slice(0, options.similarPerQuestion);
    for (const pick of picks) {
      if (items.length >= MAX_SET_QUESTIONS) break;
      used.add(pick.id);
      const points = new Set(origin.knowledgePointIds);
      const stat = wrongChoice ? statOf(pick.id) : undefined;
      const lift = coErrorLift(stat);
      items.push({
        position: items.length + 1,
        questionId: pick.id,
        originQuestionId: origin.id,
        kind: 'similar',
        reason: {
          ...base,
          knowledgePointIds: pick.knowledgePointIds.filter((id) => points.has(id)),
          type: pick.type,
          difficulty: pick.difficulty,
          pickRate: rate(pick.id),
          neverSeen: !input.seen.has(pick.id),
          noSimilar: false,
          ...distractorOf(wrongChoice, stat, lift),
        },
        alternatives: ranked.slice(picks.length).map((q) => q.id),
      });
    }
  }
  // The runners-up not picked anywhere in the set are the swap candidates.
  for (const item of items) item.alternatives = item.alternatives.filter((id) => !used.has(id)).slice(0, MAX_ALTERNATIVES);
  return items;
}

/** The distractor part of a similar pick's reason. */
function distractorOf(
  wrongChoice: boolean,
  stat: CoError | undefined,
  lift: number | null,
): Pick<PickReason, 'distractor' | 'coError'> {
  if (!wrongChoice) return { distractor: null };
  if (!stat || lift === null || lift <= 0) return { distractor: 'noData' };
  return {
    distractor: 'coError',
    coError: {
      chosenRate: stat.chosenWrong / stat.chosenAnswered,
      otherRate: stat.otherWrong / stat.otherAnswered,
      chosen: stat.chosenAnswered,
      other: stat.otherAnswered,
    },
  };
}

export type ClassQuestionRate = { questionId: number; rate: number; answered: number; lastAt: number };

/**
 * The class's common wrong questions: the questions queued with 加入错题重练 first (whatever their 得分率),
 * then 得分率 below the line (0..1), lowest first; at most MAX_SET_QUESTIONS.
 */
export function pickClassSet(
  stats: readonly ClassQuestionRate[],
  line: number,
  queued: ReadonlySet<number> = new Set(),
): ClassQuestionRate[] {
  const first = (s: ClassQuestionRate) => (queued.has(s.questionId) ? 0 : 1);
  return stats
    .filter((s) => s.answered > 0 && (s.rate < line || queued.has(s.questionId)))
    .sort((a, b) => first(a) - first(b) || a.rate - b.rate || b.lastAt - a.lastAt || a.questionId - b.questionId)
    .slice(0, MAX_SET_QUESTIONS);
}

/**
 * Replaces the question at `position` with `questionId`, which must be a valid similar question for the
 * same original (shares a knowledge point, difficulty within one step, unseen, not elsewhere in the set).
 * Returns the new set, or an error message (Chinese) when the swap breaks a rule.
 */
export function swapQuestion(
  bank: ReadonlyMap<number, PickerQuestion>,
  items: readonly PickedItem[],
  input: StudentSetInput,
  position: number,
  questionId: number,
  rates: ReadonlyMap<number, number>,
  coErrors: CoErrorStats = new Map(),
): PickedItem[] | string {
  const item = items.find((i) => i.position === position);
  if (!item) return '题号不存在';
  if (item.kind !== 'similar') return '只能替换同类题';
  if (item.questionId === questionId) return [...items];
  const origin = bank.get(item.originQuestionId);
  const pick = bank.get(questionId);
  if (!origin || !pick) return '试题不存在或不属于该学科';
  if (items.some((i) => i.questionId === questionId)) return '该题已在本套题中';
  if (input.seen.has(questionId)) return '该生做过这道题';
  if (Math.abs(pick.difficulty - origin.difficulty) > 1) return '难度与原题相差超过一级';
  const points = new Set(origin.knowledgePointIds);
  const shared = pick.knowledgePointIds.filter((id) => points.has(id));
  if (shared.length === 0) return '与原题没有相同的知识点';
  const labels = item.reason.chosenLabels ?? [];
  const wrongChoice = isChoice(origin.type) && labels.length > 0;
  const stat = wrongChoice ? coErrors.get(coErrorKey(origin.id, labels, questionId)) : undefined;
  const { coError: _previous, ...kept } = item.reason;
  return items.map((i) =>
    i.position === position
      ? {
          ...i,
          questionId,
          reason: {
            ...kept,
            knowledgePointIds: shared,
            type: pick.type,
            difficulty: pick.difficulty,
            pickRate: rates.get(questionId) ?? null,
            neverSeen: true,
            ...distractorOf(wrongChoice, stat, coErrorLift(stat)),
          },
          alternatives: [item.questionId, ...i.alternatives.filter((id) => id !== questionId)].slice(0, MAX_ALTERNATIVES),
        }
      : i,
  );
}
