/**
 * Fixture tests of every formula of analysis-stats, each computed by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import {
  analyseHomework,
  competitionRanks,
  correlation,
  describe as describeValues,
  discriminationBand,
  gradeBand,
  groupSize,
  levelRates,
  masteryOf,
  participation,
  ranksAllowed,
  reliability,
  reliabilityBand,
  scoreBands,
  scoreRateBand,
  studentCounts,
  type AnalysisQuestion,
  type AnalysisStudent,
} from '../../../src/shared/lib/analysis-stats';

/*
 * Fixture A: two questions, six enrolled, one absent.
 *   q1 single, full 2, key A;  q2 subjective, full 4.  Paper full = 6.
 *   s1: q1 2 (A),  q2 4  -> total 6
 *   s2: q1 2 (A),  q2 3  -> total 5
 *   s3: q1 0 (B),  q2 2  -> total 2
 *   s4: q1 0 (--), q2 1  -> total 1   (q1 left blank)
 *   s5: q1 2 (A),  q2 0  -> total 2
 *   s6: no marks (absent / not scanned): never a 0.
 */
const QUESTIONS: AnalysisQuestion[] = [
  { no: 1, type: 'single', full: 2, key: ['A'], options: ['A', 'B', 'C', 'D'], knowledgePoints: [{ id: 7, name: '有理数' }] },
  { no: 2, type: 'subjective', full: 4, knowledgePoints: [{ id: 7, name: '有理数' }] },
];
const ROSTER: AnalysisStudent[] = [
  { studentId: 1, classId: 10, scores: [2, 4], labels: [['A'], null] },
  { studentId: 2, classId: 10, scores: [2, 3], labels: [['A'], null] },
  { studentId: 3, classId: 11, scores: [0, 2], labels: [['B'], null] },
  { studentId: 4, classId: 11, scores: [0, 1], labels: [[], null] },
  { studentId: 5, classId: 11, scores: [2, 0], labels: [['A'], null] },
  { studentId: 6, classId: 11, scores: [null, null] },
];

describe('descriptive statistics', () => {
  it('mean, SD (n-1), median, max, min, mode of [6,5,2,1,2]', () => {
    // mean = 16 / 5 = 3.2; deviations 2.8, 1.8, -1.2, -2.2, -1.2; squares 7.84 + 3.24 + 1.44 + 4.84 + 1.44 = 18.8
    // variance = 18.8 / (5 - 1) = 4.7; SD = sqrt(4.7); sorted 1,2,2,5,6 -> median 2; mode 2.
    const d = describeValues([6, 5, 2, 1, 2]);
    expect(d.n).toBe(5);
    expect(d.mean).toBeCloseTo(3.2, 10);
    expect(d.sd).toBeCloseTo(Math.sqrt(4.7), 10);
    expect(d.median).toBe(2);
    expect(d.max).toBe(6);
    expect(d.min).toBe(1);
    expect(d.mode).toEqual([2]);
  });

  it('median of an even count is the mean of the two middle values; SD needs two values', () => {
    // sorted 1, 3, 4, 10 -> (3 + 4) / 2 = 3.5; modes on a tie are all of them.
    expect(describeValues([10, 1, 4, 3]).median).toBe(3.5);
    expect(describeValues([10, 1, 4, 3]).mode).toEqual([1, 3, 4, 10]);
    expect(describeValues([7]).sd).toBeNull();
    expect(describeValues([]).mean).toBeNull();
  });

  it('participation: 参试率 = 参考人数 / 在册人数', () => {
    // 5 of 6 -> absent 1, rate 5/6.
    expect(participation(6, 5)).toEqual({ enrolled: 6, participants: 5, absent: 1, rate: 5 / 6 });
    expect(participation(0, 0).rate).toBeNull();
  });
});

describe('rates and bands of totals', () => {
  it('优秀/良好/及格/低分率 over 参考人数 with the default lines', () => {
    // totals / 6: 1.0, 0.833, 0.333, 0.167, 0.333
    // >= 0.85: s1 -> 1/5;  >= 0.75: s1, s2 -> 2/5;  >= 0.60: 2/5;  < 0.40: s3, s4, s5 -> 3/5
    expect(levelRates([6, 5, 2, 1, 2], 6)).toEqual({ excellentRate: 0.2, goodRate: 0.4, passRate: 0.4, lowRate: 0.6 });
  });

  it('lines are configurable', () => {
    // pass line 0.3: 1.0, 0.833, 0.333, 0.333 pass -> 4/5
    const rates = levelRates([6, 5, 2, 1, 2], 6, { excellent: 0.9, good: 0.8, pass: 0.3, low: 0.2 });
    expect(rates?.passRate).toBe(0.8);
    // low < 0.2: only 0.167 -> 1/5
    expect(rates?.lowRate).toBe(0.2);
    expect(levelRates([], 6)).toBeNull();
  });

  it('10 % bands: [i*10 %, (i+1)*10 %), 100 % in the last band', () => {
    // 6/6 = 100 % -> band 9; 5/6 = 83 % -> band 8; 2/6 = 33 % -> band 3 twice; 1/6 = 17 % -> band 1; 0 -> band 0
    const counts = scoreBands([6, 5, 2, 1, 2, 0], 6).map((b) => b.count);
    expect(counts).toEqual([1, 1, 0, 2, 0, 0, 0, 0, 1, 1]);
    expect(scoreBands([], 6)[0]!.label).toBe('0-10%');
  });

  it('grade bands 优秀 / 良好 / 合格 / 待合格', () => {
    // 85 / 100 -> 优秀; 84 -> 良好; 60 -> 合格; 59 -> 待合格
    expect([85, 84, 60, 59].map((t) => gradeBand(t, 100))).toEqual(['优秀', '良好', '合格', '待合格']);
  });

  it('competition ranks, highest first, ties share a rank', () => {
    // 6 -> 1, 5 -> 2, the two 2s -> 3, 1 -> 5
    expect(competitionRanks([6, 5, 2, 1, 2])).toEqual([1, 2, 3, 5, 3]);
  });

  it('ranks are on by default only for 高中 school years', () => {
    expect(ranksAllowed('2026级 (初一)', '初中')).toBe(false);
    expect(ranksAllowed('2026级 (三年级)', '小学')).toBe(false);
    expect(ranksAllowed('2026级 (高一)', '高中')).toBe(true);
  });
});

describe('bands of question and paper statistics', () => {
  it('得分率 bands: 容易 >= 0.86, 较易 0.73-0.85, 中等 0.38-0.72, 较难 0.15-0.37, 很难 < 0.15', () => {
    expect([0.86, 0.85, 0.73, 0.72, 0.38, 0.37, 0.15, 0.14].map(scoreRateBand)).toEqual([
      '容易',
      '较易',
      '较易',
      '中等',
      '中等',
      '较难',
      '较难',
      '很难',
    ]);
  });

  it('区分度 bands: >= 0.40 很好, 0.30-0.39 良好, 0.20-0.29 尚可, < 0.20 差', () => {
    expect([0.4, 0.39, 0.3, 0.29, 0.2, 0.19, -0.1].map(discriminationBand)).toEqual([
      '很好',
      '良好',
      '良好',
      '尚可（需修改）',
      '尚可（需修改）',
      '差（需检查）',
      '差（需检查）',
    ]);
  });

  it('reliability bands: >= 0.90 高, 0.80-0.89 良好, 0.60-0.79 一般, < 0.60 偏低', () => {
    expect([0.9, 0.89, 0.8, 0.79, 0.6, 0.59].map(reliabilityBand)).toEqual(['高', '良好', '良好', '一般', '一般', '偏低']);
  });

  it('27 % groups: round(0.27 n), at least one', () => {
    // 5 * 0.27 = 1.35 -> 1; 10 * 0.27 = 2.7 -> 3; 100 -> 27
    expect([groupSize(5), groupSize(10), groupSize(100), groupSize(1)]).toEqual([1, 3, 27, 1]);
  });
});

describe('one homework (fixture A)', () => {
  const stats = analyseHomework(QUESTIONS, ROSTER, { ranks: true });

  it('absent students are excluded, never counted as 0', () => {
    // 参考人数 5 of 在册 6; mean = 16 / 5 = 3.2 (with s6 as 0 it would be 16 / 6 = 2.67)
    expect(stats.participation).toEqual({ enrolled: 6, participants: 5, absent: 1, rate: 5 / 6 });
    expect(stats.absentStudentIds).toEqual([6]);
    expect(stats.totals.mean).toBeCloseTo(3.2, 10);
    expect(stats.totals.min).toBe(1);
    // 得分率 = 3.2 / 6
    expect(stats.scoreRate).toBeCloseTo(3.2 / 6, 10);
    expect(stats.gradeBands).toEqual([
      { band: '优秀', count: 1 },
      { band: '良好', count: 1 },
      { band: '合格', count: 0 },
      { band: '待合格', count: 3 },
    ]);
  });

  it('per-question 得分率 and 区分度 D (objective and subjective formulas)', () => {
    // Groups of round(5 * 0.27) = 1: H = s1 (total 6), L = s4 (total 1).
    // q1: scores 2,2,0,0,2 -> mean 1.2, p = 0.6 (中等); D = p(H) - p(L) = 2/2 - 0/2 = 1.0 (很好)
    // q2: scores 4,3,2,1,0 -> mean 2, p = 0.5 (中等); D = (4 - 1) / 4 = 0.75
    const [q1, q2] = stats.questions;
    expect(q1!.scoreRate).toBeCloseTo(0.6, 10);
    expect(q1!.scoreRateBand).toBe('中等');
    expect(q1!.discrimination).toBeCloseTo(1, 10);
    expect(q1!.discriminationBand).toBe('很好');
    expect(q2!.scoreRate).toBeCloseTo(0.5, 10);
    expect(q2!.discrimination).toBeCloseTo(0.75, 10);
    expect(q1!.fullCount).toBe(3);
    expect(q2!.zeroCount).toBe(1);
    expect(q1!.flags).toEqual([]);
  });

  it('item-rest correlation (Moodle), 100 x corr(x, T - x)', () => {
    // q1: x = 2,2,0,0,2 (mean 1.2), rest = 4,3,2,1,0 (mean 2)
    // cov = (0.8*2 + 0.8*1 + -1.2*0 + -1.2*-1 + 0.8*-2) / 4 = (1.6 + 0.8 + 0 + 1.2 - 1.6) / 4 = 0.5
    // var x = (3 * 0.64 + 2 * 1.44) / 4 = 1.2; var rest = (4 + 1 + 0 + 1 + 4) / 4 = 2.5
    // r = 0.5 / sqrt(1.2 * 2.5) = 0.5 / sqrt(3) -> 28.87
    expect(stats.questions[0]!.itemRest).toBeCloseTo((100 * 0.5) / Math.sqrt(3), 8);
    // q2's rest is q1's scores, so the same correlation.
    expect(stats.questions[1]!.itemRest).toBeCloseTo((100 * 0.5) / Math.sqrt(3), 8);
  });

  it('item-rest is null when a variance is 0', () => {
    expect(correlation([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(correlation([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 10);
  });

  it('option distribution and blank rate of the choice question', () => {
    // readings A, A, B, (blank), A: A 3 (upper s1 chose A), B 1; key A chosen by 3; blank 1 of 5 = 0.2
    const q1 = stats.questions[0]!;
    expect(q1.blankRate).toBeCloseTo(0.2, 10);
    expect(q1.options?.options.map((o) => [o.label, o.count, o.upperCount, o.isKey])).toEqual([
      ['A', 3, 1, true],
      ['B', 1, 0, false],
      ['C', 0, 0, false],
      ['D', 0, 0, false],
    ]);
    expect(q1.options?.keyCount).toBe(3);
    expect(q1.options?.blankCount).toBe(1);
    expect(q1.options?.keySuspect).toBe(false);
    // The subjective question has no readings: no distribution, blank rate unknown.
    expect(stats.questions[1]!.options).toBeNull();
    expect(stats.questions[1]!.blankRate).toBeNull();
  });

  it('per-student right / wrong / blank counts and ranks when allowed', () => {
    // s1: full on both -> right 2; s4: q1 blank, q2 1 of 4 -> blank 1, wrong 1; s5: q1 right, q2 0 -> wrong 1
    const byId = new Map(stats.students.map((s) => [s.studentId, s]));
    expect(byId.get(1)).toMatchObject({ right: 2, wrong: 0, blank: 0, total: 6, band: '优秀', rank: 1, classRank: 1 });
    expect(byId.get(4)).toMatchObject({ right: 0, wrong: 1, blank: 1, total: 1, rank: 5 });
    expect(byId.get(5)).toMatchObject({ right: 1, wrong: 1, blank: 0 });
    // class 11: s3 2, s4 1, s5 2 -> class ranks 1, 3, 1
    expect([3, 4, 5].map((id) => byId.get(id)!.classRank)).toEqual([1, 3, 1]);
    expect(studentCounts(QUESTIONS, { scores: [null, 4] })).toEqual({ right: 1, wrong: 0, blank: 0 });
  });

  it('no ranks unless allowed; reliability not shown under 10 students', () => {
    const plain = analyseHomework(QUESTIONS, ROSTER);
    expect(plain.students.every((s) => s.rank === null && s.classRank === null)).toBe(true);
    expect(plain.reliability).toBeNull();
  });

  it('knowledge-point mastery needs 3 questions', () => {
    // point 7 on q1 and q2: (6 + 10) / (5*2 + 5*4) = 16 / 30, but only 2 questions -> 数据不足 (null)
    expect(stats.knowledgePoints).toEqual([{ id: 7, name: '有理数', questionCount: 2, rawRate: 16 / 30, mastery: null }]);
  });
});

describe('reliability (KR-20 / Cronbach alpha) and SEM', () => {
  it('KR-20 of ten students on two 0/1 questions', () => {
    // rows: (1,1) x4, (1,0) x2, (0,1) x1, (0,0) x3
    // var x1 = (6 - 10 * 0.6^2) / 9 = 2.4 / 9;  var x2 = (5 - 10 * 0.5^2) / 9 = 2.5 / 9
    // totals 2 x4, 1 x3, 0 x3: mean 1.1, var = (19 - 10 * 1.21) / 9 = 6.9 / 9
    // alpha = 2 / 1 * (1 - 4.9 / 6.9) = 4 / 6.9 = 0.5797 (偏低)
    // SEM = sqrt(6.9 / 9) * sqrt(1 - 4 / 6.9) = sqrt(6.9 / 9 * 2.9 / 6.9) = sqrt(2.9 / 9)
    const rows = [...Array.from({ length: 4 }, () => [1, 1]), [1, 0], [1, 0], [0, 1], ...Array.from({ length: 3 }, () => [0, 0])];
    const r = reliability(rows, [1, 1]);
    expect(r?.method).toBe('KR-20');
    expect(r?.alpha).toBeCloseTo(4 / 6.9, 10);
    expect(r?.sem).toBeCloseTo(Math.sqrt(2.9 / 9), 10);
    expect(r?.band).toBe('偏低');
    expect(reliability(rows.slice(0, 9), [1, 1])).toBeNull();
  });

  it('Cronbach alpha when marks are partial', () => {
    // Same as above with x2 halved to 0 / 0.5 on a full of 1 except one row at 0.5 -> not dichotomous.
    const rows = [
      [1, 1],
      [1, 1],
      [1, 0.5],
      [1, 1],
      [1, 0],
      [0, 0],
      [0, 1],
      [0, 0],
      [0, 0],
      [1, 1],
    ];
    // x1: six 1s -> var 2.4 / 9; x2: values 1,1,.5,1,0,0,1,0,0,1 -> sum 5.5, sum sq 5.25,
    //   var = (5.25 - 5.5^2 / 10) / 9 = (5.25 - 3.025) / 9 = 2.225 / 9
    // totals 2,2,1.5,2,1,0,1,0,0,2 -> sum 11.5, sum sq 4+4+2.25+4+1+0+1+0+0+4 = 20.25
    //   var = (20.25 - 11.5^2 / 10) / 9 = (20.25 - 13.225) / 9 = 7.025 / 9
    // alpha = 2 * (1 - (2.4 + 2.225) / 7.025) = 2 * 2.4 / 7.025
    const r = reliability(rows, [1, 1]);
    expect(r?.method).toBe('alpha');
    expect(r?.alpha).toBeCloseTo((2 * 2.4) / 7.025, 10);
  });

  it('no variance in totals -> null', () => {
    expect(
      reliability(
        Array.from({ length: 10 }, () => [1, 0]),
        [1, 1],
      ),
    ).toBeNull();
  });
});

describe('flags: 请检查此题', () => {
  it('a distractor the top group prefers is 答案可能有误; low D is flagged', () => {
    // Ten students, groups of 3. The three best (q2 = 10) all chose B on q1 (key A) -> key suspect.
    // q1 scores: top three 0, the other seven 2 -> p(H) = 0, p(L) = 1 -> D = -1 (区分度偏低).
    const questions: AnalysisQuestion[] = [
      { no: 1, type: 'single', full: 2, key: ['A'], options: ['A', 'B', 'C', 'D'] },
      { no: 2, type: 'subjective', full: 10 },
    ];
    const roster: AnalysisStudent[] = Array.from({ length: 10 }, (_, i) => ({
      studentId: i + 1,
      classId: 1,
      scores: i < 3 ? [0, 10] : [2, i - 3],
      labels: [i < 3 ? ['B'] : ['A'], null],
    }));
    const q1 = analyseHomework(questions, roster).questions[0]!;
    expect(q1.discrimination).toBeCloseTo(-1, 10);
    expect(q1.options?.keySuspect).toBe(true);
    expect(q1.flags).toEqual(['区分度偏低', '答案可能有误']);
  });

  it('得分率 below 0.20 is flagged', () => {
    // 1 of 10 got the 1-mark question: p = 0.1
    const roster: AnalysisStudent[] = Array.from({ length: 10 }, (_, i) => ({
      studentId: i + 1,
      classId: 1,
      scores: [i === 0 ? 1 : 0, i],
    }));
    const stats = analyseHomework(
      [
        { no: 1, type: 'blank', full: 1 },
        { no: 2, type: 'subjective', full: 10 },
      ],
      roster,
    );
    expect(stats.questions[0]!.flags).toContain('得分率过低');
  });
});

describe('knowledge-point mastery', () => {
  it('weighted by full marks, with the number of questions behind it', () => {
    // point 1: q1 2/2, q2 1/4, q3 3/4 -> (2 + 1 + 3) / (2 + 4 + 4) = 0.6 over 3 questions
    // point 2: q1 2/2, q2 1/4 -> 3 / 6 = 0.5 but 2 questions -> 数据不足 (mastery null)
    const items = [
      { pointId: 1, pointName: '方程', questionKey: 'q1', score: 2, full: 2 },
      { pointId: 1, pointName: '方程', questionKey: 'q2', score: 1, full: 4 },
      { pointId: 1, pointName: '方程', questionKey: 'q3', score: 3, full: 4 },
      { pointId: 2, pointName: '不等式', questionKey: 'q1', score: 2, full: 2 },
      { pointId: 2, pointName: '不等式', questionKey: 'q2', score: 1, full: 4 },
    ];
    expect(masteryOf(items)).toEqual([
      { id: 1, name: '方程', questionCount: 3, rawRate: 0.6, mastery: 0.6 },
      { id: 2, name: '不等式', questionCount: 2, rawRate: 0.5, mastery: null },
    ]);
  });
});
