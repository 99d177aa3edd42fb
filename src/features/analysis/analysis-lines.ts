/**
 * The 优秀 / 良好 / 及格 / 低分 lines a view used (the answer's `lines`: the school year and subject's own,
 * else the school's), written for tooltips and exports. Apart from analysis-format.ts, which every
 * analysis page loads, so pages that do not name the lines do not carry it.
 */
type Lines = { excellent: number; good: number; pass: number; low: number };
/** A line (a fraction of the full mark) as a percent: whole or one decimal. */
const linePct = (fraction: number) => `${Math.round(fraction * 1000) / 10}%`;

/** The lines a view used, e.g. 优秀 ≥85% · 良好 ≥75% · 及格 ≥60% · 低分 <40%. */
export const linesText = (lines: Lines) =>
  `优秀 ≥${linePct(lines.excellent)} · 良好 ≥${linePct(lines.good)} · 及格 ≥${linePct(lines.pass)} · 低分 <${linePct(lines.low)}`;

/**
 * The 优秀率 / 良好率 / 及格率 / 低分率 tooltip with the lines the server resolved for the view (the school
 * year and subject's, else the school's).
 */
export const levelsHelp = (lines: Lines) =>
  `优秀率 / 良好率 / 及格率 / 低分率：总分分别 ≥${linePct(lines.excellent)} / ≥${linePct(lines.good)} / ≥${linePct(lines.pass)} / <${linePct(lines.low)} 满分的人数 ÷ 参考人数（分数线见学校设置）`;

/** Several subjects at once (data centre): each homework's own lines. */
export const LEVELS_PER_HOMEWORK = '优秀率 / 良好率 / 及格率：总分达到该作业学年、学科分数线的人数 ÷ 参考人数';
