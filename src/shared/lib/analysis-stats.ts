/**
 * The statistics of learning analysis: one pure module (no IO) that every analysis page, report and
 * export computes its figures with, so the same figure is the same everywhere. Formulas, bands and names
 * follow /shared/spec/analysis-definitions.md; each function says its denominator.
 *
 * Conventions:
 * - A student without any mark for a homework is absent (缺考) or not scanned (未扫描): never a 0. They
 *   count in 在册人数 only; every mean and rate is over 参考人数 (students with a mark).
 * - A participant's question without a mark (held back by review, not marked yet) is left out of that
 *   question's figures; their total is the sum of the marks they have.
 * - Rates are fractions 0..1; the pages format them.
 */

export type AnalysisQuestionType = 'single' | 'multiple' | 'judge' | 'blank' | 'subjective';

export type AnalysisQuestion = {
  no: number;
  type: AnalysisQuestionType;
  /** Full mark of the question. */
  full: number;
  /** Objective questions: the key's labels. */
  key?: readonly string[];
  /** Choice questions: the option labels offered (A–D; 对/错 for judge). */
  options?: readonly string[];
  knowledgePoints?: readonly { id: number; name: string }[];
};

/** One enrolled student and their marks, aligned with the questions (null = no mark). */
export type AnalysisStudent = {
  studentId: number;
  classId: number;
  scores: readonly (number | null)[];
  /** Objective questions: the labels read (empty = left blank); null where unknown. */
  labels?: readonly (readonly string[] | null)[];
};

export type RateLines = { excellent: number; good: number; pass: number; low: number };

/** Default lines as fractions of the full mark; each school sets its own per school year and subject. */
export const DEFAULT_RATE_LINES: RateLines = { excellent: 0.85, good: 0.75, pass: 0.6, low: 0.4 };

/** Reliability (alpha) and ranks are not shown below this many participants. */
export const MIN_RELIABILITY_STUDENTS = 10;
/** 掌握度 needs at least this many questions; fewer is 数据不足. */
export const MIN_MASTERY_QUESTIONS = 3;
/** Share of students in the upper and lower groups of the discrimination index. */
export const DISCRIMINATION_GROUP_SHARE = 0.27;

export const OBJECTIVE_TYPES: readonly AnalysisQuestionType[] = ['single', 'multiple', 'judge'];
export const isObjective = (type: AnalysisQuestionType) => OBJECTIVE_TYPES.includes(type);

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : sum(values) / values.length;
}

/** Sample variance (n - 1); null below two values. */
export function sampleVariance(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  const m = sum(values) / values.length;
  return sum(values.map((v) => (v - m) ** 2)) / (values.length - 1);
}

/** Mean of the two middle values for an even count. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The most frequent values (all of them on a tie), ascending; empty for no values. */
export function modes(values: readonly number[]): number[] {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const top = Math.max(0, ...counts.values());
  return [...counts.entries()]
    .filter(([, c]) => c === top)
    .map(([v]) => v)
    .sort((a, b) => a - b);
}

export type Descriptive = {
  n: number;
  mean: number | null;
  /** Sample standard deviation (n - 1). */
  sd: number | null;
  median: number | null;
  max: number | null;
  min: number | null;
  mode: number[];
};

export function describe(values: readonly number[]): Descriptive {
  const variance = sampleVariance(values);
  // Sorted once (a typed array sorts numbers without a comparator): the median, the extremes and the modes
  // (the longest runs of equal values, ascending) read it, as median(), Math.max/min and modes() would.
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const mid = Math.floor(n / 2);
  const mode: number[] = [];
  let top = 0;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && sorted[j] === sorted[i]) j += 1;
    if (j - i > top) {
      top = j - i;
      mode.length = 0;
    }
    if (j - i === top) mode.push(sorted[i]!);
    i = j;
  }
  return {
    n,
    mean: mean(values),
    sd: variance === null ? null : Math.sqrt(variance),
    median: n === 0 ? null : n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2,
    max: n ? sorted[n - 1]! : null,
    min: n ? sorted[0]! : null,
    mode,
  };
}

export type Participation = {
  /** 在册人数 */
  enrolled: number;
  /** 参考人数: students with a mark. */
  participants: number;
  /** 缺考 or 未扫描: enrolled without any mark. */
  absent: number;
  /** 参试率 = 参考人数 / 在册人数; null for nobody enrolled. */
  rate: number | null;
};

export function participation(enrolled: number, participants: number): Participation {
  return { enrolled, participants, absent: enrolled - participants, rate: enrolled === 0 ? null : participants / enrolled };
}

export type LevelRates = { excellentRate: number; goodRate: number; passRate: number; lowRate: number };

/** 优秀/良好/及格率 (>= line) and 低分率 (< line) over 参考人数; null for no participants. */
export function levelRates(totals: readonly number[], full: number, lines: RateLines = DEFAULT_RATE_LINES): LevelRates | null {
  if (totals.length === 0 || full <= 0) return null;
  // One pass, the same comparisons as four filters.
  let excellent = 0;
  let good = 0;
  let pass = 0;
  let low = 0;
  for (const t of totals) {
    const r = t / full;
    if (r >= lines.excellent - 1e-9) excellent += 1;
    if (r >= lines.good - 1e-9) good += 1;
    if (r >= lines.pass - 1e-9) pass += 1;
    if (r < lines.low - 1e-9) low += 1;
  }
  return {
    excellentRate: excellent / totals.length,
    goodRate: good / totals.length,
    passRate: pass / totals.length,
    lowRate: low / totals.length,
  };
}

export type GradeBand = '优秀' | '良好' | '合格' | '待合格';
export const GRADE_BANDS: readonly GradeBand[] = ['优秀', '良好', '合格', '待合格'];

/** The grade band (等级) of one total, shown instead of ranks by default. */
export function gradeBand(total: number, full: number, lines: RateLines = DEFAULT_RATE_LINES): GradeBand {
  const r = full > 0 ? total / full : 0;
  if (r >= lines.excellent - 1e-9) return '优秀';
  if (r >= lines.good - 1e-9) return '良好';
  if (r >= lines.pass - 1e-9) return '合格';
  return '待合格';
}

/**
 * Counts in 10 % bands of the full mark: band i holds [i*10 %, (i+1)*10 %), the last also holds 100 %.
 * Labels read 0-10%, ..., 90-100%.
 */
export function scoreBands(totals: readonly number[], full: number): { label: string; count: number }[] {
  const counts = Array.from({ length: 10 }, () => 0);
  for (const t of totals) {
    const r = full > 0 ? t / full : 0;
    const i = Math.min(9, Math.max(0, Math.floor(r * 10 + 1e-9)));
    counts[i]! += 1;
  }
  return counts.map((count, i) => ({ label: `${i * 10}-${(i + 1) * 10}%`, count }));
}

/** Competition ranks (1, 2, 2, 4) of totals, highest first; aligned with the input. */
export function competitionRanks(totals: readonly number[]): number[] {
  // 1 + how many totals are above t + 1e-9: a binary search in the totals sorted highest first.
  const sorted = Float64Array.from(totals).sort().reverse();
  return totals.map((t) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! > t + 1e-9) lo = mid + 1;
      else hi = mid;
    }
    return 1 + lo;
  });
}

export type ScoreRateBand = '容易' | '较易' | '中等' | '较难' | '很难';

/** Bands on 得分率 (p rounded to two decimals first, so the page's 0.86 and the band agree). */
export function scoreRateBand(p: number): ScoreRateBand {
  const r = Math.round(p * 100) / 100;
  if (r >= 0.86) return '容易';
  if (r >= 0.73) return '较易';
  if (r >= 0.38) return '中等';
  if (r >= 0.15) return '较难';
  return '很难';
}

export type DiscriminationBand = '很好' | '良好' | '尚可（需修改）' | '差（需检查）';

export function discriminationBand(d: number): DiscriminationBand {
  const r = Math.round(d * 100) / 100;
  if (r >= 0.4) return '很好';
  if (r >= 0.3) return '良好';
  if (r >= 0.2) return '尚可（需修改）';
  return '差（需检查）';
}

export type ReliabilityBand = '高' | '良好' | '一般' | '偏低';

export function reliabilityBand(alpha: number): ReliabilityBand {
  const r = Math.round(alpha * 100) / 100;
  if (r >= 0.9) return '高';
  if (r >= 0.8) return '良好';
  if (r >= 0.6) return '一般';
  return '偏低';
}

/** Size of the upper and lower groups: 27 % of the participants, rounded, at least 1. */
export function groupSize(n: number): number {
  return n === 0 ? 0 : Math.max(1, Math.round(n * DISCRIMINATION_GROUP_SHARE));
}

/**
 * Indices of the upper (H) and lower (L) 27 % by total. Ties at the cut are broken by input order
 * (stable sort), which the caller keeps deterministic (by student id).
 */
export function extremeGroups(totals: readonly number[]): { upper: number[]; lower: number[] } {
  const order = totals.map((t, i) => ({ t, i })).sort((a, b) => b.t - a.t || a.i - b.i);
  const g = groupSize(totals.length);
  return { upper: order.slice(0, g).map((o) => o.i), lower: order.slice(order.length - g).map((o) => o.i) };
}

/**
 * 区分度 D. Objective: D = p(H) - p(L), p the share of full marks (score rate) in the group;
 * subjective: D = (mean(H) - mean(L)) / full. For a question marked 0 or full the two are the same
 * number; both are written out so the definitions page can be checked line by line.
 */
export function discriminationIndex(
  scores: readonly number[],
  totals: readonly number[],
  full: number,
  objective: boolean,
  /** extremeGroups(totals) when the caller has it already. */
  groups: { upper: number[]; lower: number[] } = extremeGroups(totals),
): number | null {
  if (scores.length < 2 || full <= 0) return null;
  const { upper, lower } = groups;
  const groupMean = (idx: number[]) => sum(idx.map((i) => scores[i]!)) / idx.length;
  if (objective) {
    const p = (idx: number[]) => groupMean(idx) / full;
    return p(upper) - p(lower);
  }
  return (groupMean(upper) - groupMean(lower)) / full;
}

/** Pearson correlation with sample variances; null when either variance is 0 or n < 2. */
export function correlation(x: readonly number[], y: readonly number[]): number | null {
  const vx = sampleVariance(x);
  const vy = sampleVariance(y);
  if (vx === null || vy === null || vx === 0 || vy === 0) return null;
  const mx = sum(x) / x.length;
  const my = sum(y) / y.length;
  const cov = sum(x.map((v, i) => (v - mx) * (y[i]! - my))) / (x.length - 1);
  return cov / Math.sqrt(vx * vy);
}

/** Moodle's discrimination index: 100 x corr(x_i, T - x_i); null when either variance is 0. */
export function itemRestCorrelation(scores: readonly number[], totals: readonly number[]): number | null {
  const r = correlation(
    scores,
    totals.map((t, i) => t - scores[i]!),
  );
  return r === null ? null : 100 * r;
}

export type Reliability = {
  /** KR-20 when every question is marked 0 or full, else Cronbach's alpha. */
  method: 'KR-20' | 'alpha';
  alpha: number;
  /** SEM = SD x sqrt(1 - alpha), in marks. */
  sem: number;
  band: ReliabilityBand;
};

/** What the reliability needs of the students with every question marked: sums, never the matrix. */
export type ReliabilitySums = {
  /** Students with every question marked. */
  n: number;
  /** Sum and sum of squares of their totals. */
  totalSum: number;
  totalSquares: number;
  /** Per question: sum and sum of squares of their marks, and the full mark. */
  items: readonly { sum: number; squares: number; full: number }[];
};

/** Sample variance (n - 1) from a count, a sum and a sum of squares. */
const varianceFromSums = (n: number, total: number, squares: number) => Math.max(0, squares - (total * total) / n) / (n - 1);

/**
 * Cronbach's alpha / KR-20 = k / (k - 1) x (1 - sum(var_i) / var_total) over students with every
 * question marked; null under 10 such students, under 2 questions, or when the totals do not vary.
 * Computed from sums (sufficient statistics) so the homework view (which has the marks) and the grade and
 * class views (which read the pre-aggregated sums, homework_class_question_totals) give the same number.
 * A question is 0-or-full for everyone exactly when its sum of squares is full x its sum.
 */
export function reliabilityFromSums(sums: ReliabilitySums): Reliability | null {
  const k = sums.items.length;
  if (sums.n < MIN_RELIABILITY_STUDENTS || k < 2) return null;
  const varTotal = varianceFromSums(sums.n, sums.totalSum, sums.totalSquares);
  if (varTotal <= 1e-12) return null;
  const itemVars = sums.items.map((item) => varianceFromSums(sums.n, item.sum, item.squares));
  const alpha = (k / (k - 1)) * (1 - sum(itemVars) / varTotal);
  const dichotomous = sums.items.every((item) => Math.abs(item.squares - item.full * item.sum) <= 1e-9);
  const sem = Math.sqrt(varTotal) * Math.sqrt(Math.max(0, 1 - alpha));
  return { method: dichotomous ? 'KR-20' : 'alpha', alpha, sem, band: reliabilityBand(alpha) };
}

/** reliabilityFromSums over a student x question matrix (students with every question marked). */
export function reliability(matrix: readonly (readonly number[])[], fulls: readonly number[]): Reliability | null {
  return reliabilityFromSums(reliabilitySums(matrix, fulls));
}

export function reliabilitySums(matrix: readonly (readonly number[])[], fulls: readonly number[]): ReliabilitySums {
  const totals = matrix.map((row) => sum(row));
  return {
    n: matrix.length,
    totalSum: sum(totals),
    totalSquares: sum(totals.map((t) => t * t)),
    items: fulls.map((full, q) => ({
      sum: sum(matrix.map((row) => row[q]!)),
      squares: sum(matrix.map((row) => row[q]! * row[q]!)),
      full,
    })),
  };
}

export type OptionCount = { label: string; count: number; upperCount: number; isKey: boolean };

export type OptionDistribution = {
  options: OptionCount[];
  /** Students whose whole answer equals the key. */
  keyCount: number;
  blankCount: number;
  /** A distractor chosen by the upper group more often than the key: 答案可能有误. */
  keySuspect: boolean;
};

/**
 * Option distribution of a choice question over the participants with a reading. A multiple-choice
 * answer counts once for each label chosen. keySuspect compares, within the upper 27 %, each distractor's
 * count with the key's (single/judge) or with the least chosen key label (multiple).
 */
export function optionDistribution(
  question: AnalysisQuestion,
  labels: readonly (readonly string[])[],
  upper: ReadonlySet<number>,
): OptionDistribution {
  const key = new Set(question.key ?? []);
  const offered = [...(question.options ?? [])];
  for (const answer of labels) for (const l of answer) if (!offered.includes(l)) offered.push(l);
  const options = offered.map((label) => ({ label, count: 0, upperCount: 0, isKey: key.has(label) }));
  let keyCount = 0;
  let blankCount = 0;
  labels.forEach((answer, i) => {
    if (answer.length === 0) blankCount += 1;
    if (answer.length === key.size && answer.every((l) => key.has(l))) keyCount += 1;
    for (const l of answer) {
      const option = options.find((o) => o.label === l)!;
      option.count += 1;
      if (upper.has(i)) option.upperCount += 1;
    }
  });
  const keyUpper = options.filter((o) => o.isKey).map((o) => o.upperCount);
  const keyLine = keyUpper.length ? Math.min(...keyUpper) : 0;
  const keySuspect = options.some((o) => !o.isKey && o.upperCount > keyLine);
  return { options, keyCount, blankCount, keySuspect };
}

export type QuestionFlag = '区分度偏低' | '得分率过低' | '答案可能有误';

export type QuestionStats = {
  no: number;
  type: AnalysisQuestionType;
  full: number;
  /** Participants with a mark for this question (the denominator of every rate below). */
  n: number;
  mean: number | null;
  /** 得分率 p = mean / full. */
  scoreRate: number | null;
  scoreRateBand: ScoreRateBand | null;
  /** 区分度 D (27 % groups). */
  discrimination: number | null;
  discriminationBand: DiscriminationBand | null;
  /** 100 x item-rest correlation; null when a variance is 0. */
  itemRest: number | null;
  /** 未作答率 over the participants with a reading (objective questions only). */
  blankRate: number | null;
  /** 满分人数 / 零分人数 */
  fullCount: number;
  zeroCount: number;
  options: OptionDistribution | null;
  /** 请检查此题: why. Empty = fine. */
  flags: QuestionFlag[];
};

export type StudentStats = {
  studentId: number;
  classId: number;
  total: number;
  scoreRate: number;
  band: GradeBand;
  right: number;
  wrong: number;
  blank: number;
  /** Ranks only where allowed; otherwise null. */
  classRank: number | null;
  rank: number | null;
};

export type KnowledgePointStats = {
  id: number;
  name: string;
  /** Questions of the paper tagged with it. */
  questionCount: number;
  /** 掌握度 = sum of marks / sum of full marks over those questions and the participants; null = 数据不足. */
  mastery: number | null;
  /** The weighted rate even when there are too few questions (shown greyed). */
  rawRate: number | null;
};

export type HomeworkStats = {
  full: number;
  participation: Participation;
  totals: Descriptive;
  scoreRate: number | null;
  levels: LevelRates | null;
  bands: { label: string; count: number }[];
  gradeBands: { band: GradeBand; count: number }[];
  reliability: Reliability | null;
  questions: QuestionStats[];
  /** Participants only, in input order. */
  students: StudentStats[];
  /** Enrolled without a mark (缺考 / 未扫描). */
  absentStudentIds: number[];
  knowledgePoints: KnowledgePointStats[];
};

export type AnalyseOptions = { lines?: RateLines; ranks?: boolean };

/**
 * Every figure of one homework over a roster (a class, several classes or the grade): participation,
 * totals, rates, bands, per-question statistics and flags, reliability, per-student counts and
 * knowledge-point mastery.
 */
export function analyseHomework(
  questions: readonly AnalysisQuestion[],
  roster: readonly AnalysisStudent[],
  options: AnalyseOptions = {},
): HomeworkStats {
  const lines = options.lines ?? DEFAULT_RATE_LINES;
  const full = sum(questions.map((q) => q.full));
  const present = roster.filter((s) => s.scores.some((v) => v !== null));
  const absentStudentIds = roster.filter((s) => !s.scores.some((v) => v !== null)).map((s) => s.studentId);
  const totals = present.map((s) => sum(s.scores.map((v) => v ?? 0)));
  const described = describe(totals);
  const groups = extremeGroups(totals);
  const upperSet = new Set(groups.upper);

  const questionStats: QuestionStats[] = questions.map((q, qi) => {
    const idx = present.map((_, i) => i).filter((i) => present[i]!.scores[qi] !== null);
    const scores = idx.map((i) => present[i]!.scores[qi]!);
    const qTotals = idx.map((i) => totals[i]!);
    const m = mean(scores);
    const scoreRate = m === null || q.full <= 0 ? null : m / q.full;
    const objective = isObjective(q.type);
    // A question every participant has a mark for: its totals are the homework's, so are their groups.
    const discrimination = discriminationIndex(
      scores,
      qTotals,
      q.full,
      objective,
      idx.length === totals.length ? groups : extremeGroups(qTotals),
    );
    const readings = idx.map((i) => present[i]!.labels?.[qi] ?? null);
    const read = readings.filter((r): r is readonly string[] => r !== null);
    const upperLocal = new Set(idx.map((i, k) => (upperSet.has(i) ? k : -1)).filter((k) => k >= 0));
    const readUpper = new Set<number>();
    let r = 0;
    readings.forEach((reading, k) => {
      if (reading === null) return;
      if (upperLocal.has(k)) readUpper.add(r);
      r += 1;
    });
    const choice = q.type === 'single' || q.type === 'multiple' || q.type === 'judge';
    const options = choice && read.length > 0 && q.key ? optionDistribution(q, read, readUpper) : null;
    const flags: QuestionFlag[] = [];
    if (discrimination !== null && discrimination < 0.2 - 1e-9) flags.push('区分度偏低');
    if (scoreRate !== null && scoreRate < 0.2 - 1e-9) flags.push('得分率过低');
    if (options?.keySuspect) flags.push('答案可能有误');
    return {
      no: q.no,
      type: q.type,
      full: q.full,
      n: scores.length,
      mean: m,
      scoreRate,
      scoreRateBand: scoreRate === null ? null : scoreRateBand(scoreRate),
      discrimination,
      discriminationBand: discrimination === null ? null : discriminationBand(discrimination),
      itemRest: itemRestCorrelation(scores, qTotals),
      blankRate: read.length === 0 ? null : read.filter((a) => a.length === 0).length / read.length,
      fullCount: scores.filter((s) => s >= q.full - 1e-9).length,
      zeroCount: scores.filter((s) => s <= 1e-9).length,
      options,
      flags,
    };
  });

  const ranks = options.ranks ? competitionRanks(totals) : null;
  const classRanks = new Map<number, number>();
  if (options.ranks) {
    for (const classId of new Set(present.map((s) => s.classId))) {
      const members = present.map((s, i) => ({ s, i })).filter(({ s }) => s.classId === classId);
      const r = competitionRanks(members.map(({ i }) => totals[i]!));
      members.forEach(({ i }, k) => classRanks.set(i, r[k]!));
    }
  }
  const studentStats: StudentStats[] = present.map((s, i) => {
    const counts = studentCounts(questions, s);
    const total = totals[i]!;
    return {
      studentId: s.studentId,
      classId: s.classId,
      total,
      scoreRate: full > 0 ? total / full : 0,
      band: gradeBand(total, full, lines),
      ...counts,
      classRank: classRanks.get(i) ?? null,
      rank: ranks ? ranks[i]! : null,
    };
  });

  return {
    ...summaryOfPresent(questions, roster.length, present, totals, lines, described),
    questions: questionStats,
    students: studentStats,
    absentStudentIds,
    knowledgePoints: knowledgePointMastery(questions, present),
  };
}

/** The summary fields of analyseHomework from its participants and their totals. */
function summaryOfPresent(
  questions: readonly AnalysisQuestion[],
  enrolled: number,
  present: readonly AnalysisStudent[],
  totals: readonly number[],
  lines: RateLines,
  described: Descriptive = describe(totals),
): TotalsSummary {
  const complete = present.filter((s) => s.scores.every((v) => v !== null)).map((s) => s.scores as number[]);
  return summariseTotals(
    sum(questions.map((q) => q.full)),
    enrolled,
    totals,
    reliabilitySums(
      complete,
      questions.map((q) => q.full),
    ),
    lines,
    described,
  );
}

/**
 * Only the summary part of analyseHomework (the same fields, computed the same way) over a roster: for
 * views that show a summary per class beside the full analysis.
 */
export function summariseHomework(
  questions: readonly AnalysisQuestion[],
  roster: readonly AnalysisStudent[],
  options: Pick<AnalyseOptions, 'lines'> = {},
): TotalsSummary {
  const present = roster.filter((s) => s.scores.some((v) => v !== null));
  const totals = present.map((s) => sum(s.scores.map((v) => v ?? 0)));
  return summaryOfPresent(questions, roster.length, present, totals, options.lines ?? DEFAULT_RATE_LINES);
}

export type TotalsSummary = Pick<
  HomeworkStats,
  'full' | 'participation' | 'totals' | 'scoreRate' | 'levels' | 'bands' | 'gradeBands' | 'reliability'
>;

/**
 * The summary of a homework over a roster from the participants' totals and the reliability sums: what
 * analyseHomework answers for these fields, and what the grade and class views compute from the
 * pre-aggregated totals without the marks (the same function, so the same number).
 */
export function summariseTotals(
  full: number,
  enrolled: number,
  totals: readonly number[],
  sums: ReliabilitySums,
  lines: RateLines = DEFAULT_RATE_LINES,
  described: Descriptive = describe(totals),
): TotalsSummary {
  const bandCounts = new Map<GradeBand, number>(GRADE_BANDS.map((band) => [band, 0]));
  for (const total of totals) {
    const band = gradeBand(total, full, lines);
    bandCounts.set(band, bandCounts.get(band)! + 1);
  }
  return {
    full,
    participation: participation(enrolled, totals.length),
    totals: described,
    scoreRate: described.mean === null || full <= 0 ? null : described.mean / full,
    levels: levelRates(totals, full, lines),
    bands: scoreBands(totals, full),
    gradeBands: GRADE_BANDS.map((band) => ({ band, count: bandCounts.get(band)! })),
    reliability: reliabilityFromSums(sums),
  };
}

/**
 * Right (full mark) / wrong (anything less, partial marks included) / blank (an objective question with
 * no label read) of one student; questions without a mark are not counted.
 */
export function studentCounts(
  questions: readonly AnalysisQuestion[],
  student: Pick<AnalysisStudent, 'scores' | 'labels'>,
): { right: number; wrong: number; blank: number } {
  let right = 0;
  let wrong = 0;
  let blank = 0;
  questions.forEach((q, qi) => {
    const score = student.scores[qi];
    if (score === null || score === undefined) return;
    const labels = student.labels?.[qi];
    if (labels && labels.length === 0) blank += 1;
    else if (score >= q.full - 1e-9) right += 1;
    else wrong += 1;
  });
  return { right, wrong, blank };
}

/** One observation of a knowledge point: a mark out of a full mark on a question tagged with it. */
export type MasteryItem = { pointId: number; pointName: string; questionKey: string; score: number; full: number };

/**
 * 掌握度 per knowledge point = sum of marks / sum of full marks over its observations, with the number of
 * distinct questions behind it; fewer than 3 questions gives mastery null (数据不足), rawRate kept.
 */
export function masteryOf(items: readonly MasteryItem[]): KnowledgePointStats[] {
  const byPoint: PointSums = new Map();
  for (const item of items) addObservation(byPoint, item.pointId, item.pointName, item.questionKey, item.score, item.full);
  return masteryOfSums(byPoint);
}

/** Per knowledge point: its name, the questions behind it, the sum of marks and of full marks. */
type PointSums = Map<number, { name: string; questions: Set<string>; score: number; full: number }>;

/** One observation (what a MasteryItem carries) added to its point's sums. */
function addObservation(
  byPoint: PointSums,
  pointId: number,
  pointName: string,
  questionKey: string,
  score: number,
  full: number,
) {
  let entry = byPoint.get(pointId);
  if (!entry) byPoint.set(pointId, (entry = { name: pointName, questions: new Set(), score: 0, full: 0 }));
  entry.questions.add(questionKey);
  entry.score += score;
  entry.full += full;
}

function masteryOfSums(byPoint: PointSums): KnowledgePointStats[] {
  return [...byPoint.entries()]
    .map(([id, e]) => {
      const rawRate = e.full > 0 ? e.score / e.full : null;
      return {
        id,
        name: e.name,
        questionCount: e.questions.size,
        rawRate,
        mastery: e.questions.size >= MIN_MASTERY_QUESTIONS ? rawRate : null,
      };
    })
    .sort((a, b) => a.id - b.id);
}

function knowledgePointMastery(questions: readonly AnalysisQuestion[], present: readonly AnalysisStudent[]) {
  // masteryOf over one item per question, point and participant with a mark, added as they come (the
  // same order, so the same sums) without making the items.
  const byPoint: PointSums = new Map();
  questions.forEach((q, qi) => {
    const questionKey = String(q.no);
    for (const point of q.knowledgePoints ?? []) {
      for (const s of present) {
        const score = s.scores[qi];
        if (score === null || score === undefined) continue;
        addObservation(byPoint, point.id, point.name, questionKey, score, q.full);
      }
    }
  });
  return masteryOfSums(byPoint);
}

/**
 * Ranks and named lists: off by default for 小学 and 初中 school years, on for 高中. A 完全中学's school
 * year is 高中 when its name says so (高一, 高2026级...). `enabled` is the school's own choice for the
 * school year (null: the default).
 */
export function ranksAllowed(schoolYearName: string, schoolType = '初中', enabled: boolean | null = null): boolean {
  if (enabled !== null) return enabled;
  if (schoolType === '高中') return true;
  if (schoolType === '完全中学') return /高/.test(schoolYearName);
  return false;
}

/** Class minus grade (for a mean or a rate); null when either is unknown. */
export function difference(klass: number | null, grade: number | null): number | null {
  return klass === null || grade === null ? null : klass - grade;
}
