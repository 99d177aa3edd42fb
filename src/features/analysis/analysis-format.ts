/** How analysis figures are written on screen and in exports (rates as percentages, marks to 0.1). */
export const pct = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : `${(value * 100).toFixed(digits)}%`;

export const num = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : String(Math.round(value * 10 ** digits) / 10 ** digits);

/** Judge answers are stored as T/F bubbles; shown as 对/错. */
export const labelText = (label: string) => (label === 'T' ? '对' : label === 'F' ? '错' : label);

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

/** The denominators, named once, for the tooltips. */
export const DENOMINATORS = {
  scoreRate: '得分率 = 平均分 ÷ 满分；分母为参考人数（有成绩的学生），缺考、未扫描不计入',
  participation: '参试率 = 参考人数 ÷ 在册人数；缺考、未扫描单列，从不按 0 分计',
  /** Where one view spans several subjects (data centre): each homework's own lines. */
  levels: '优秀率 / 良好率 / 及格率：总分达到该作业学年、学科分数线（学校设置，默认 85% / 75% / 60%）的人数 ÷ 参考人数',
  discrimination:
    '区分度 D：按总分取前 27% 与后 27% 学生，客观题 D = 高分组得分率 − 低分组得分率，主观题 D = (高分组均分 − 低分组均分) ÷ 满分',
  itemRest: '题总相关：100 × 本题得分与其余题总分的相关系数（样本方差）；任一方差为 0 时不计算',
  blankRate: '未作答率 = 未作答人数 ÷ 有识别结果的参考人数（仅客观题）',
  mastery: '掌握度 = 相关题目得分之和 ÷ 满分之和；少于 3 道题显示“数据不足”',
  reliability: '信度：Cronbach α（全部为 0/满分题时即 KR-20），参考人数少于 10 人不计算；SEM = 标准差 × √(1 − α)',
} as const;
