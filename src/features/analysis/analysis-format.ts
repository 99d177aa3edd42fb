/** How analysis figures are written on screen and in exports (rates as percentages, marks to 0.1). */
export const pct = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : `${(value * 100).toFixed(digits)}%`;

export const num = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : String(Math.round(value * 10 ** digits) / 10 ** digits);

/** Judge answers are stored as T/F bubbles; shown as 对/错. */
export const labelText = (label: string) => (label === 'T' ? '对' : label === 'F' ? '错' : label);

/** What 未参考 covers, as the Word report says it: a homework a student has no final total in. */
export const NOT_COUNTED_HELP = '未参考：缺考、未扫描或阅卷中，不按 0 分计';

/** The denominators, named once, for the tooltips. */
export const DENOMINATORS = {
  scoreRate: '得分率 = 平均分 ÷ 满分；分母为参考人数（有成绩的学生），缺考、未扫描不计入',
  participation: '参试率 = 参考人数 ÷ 在册人数；未参考的学生（缺考、未扫描、阅卷中）单列，从不按 0 分计',
  discrimination:
    '区分度 D：按总分取前 27% 与后 27% 学生，客观题 D = 高分组得分率 − 低分组得分率，主观题 D = (高分组均分 − 低分组均分) ÷ 满分',
  itemRest: '题总相关：100 × 本题得分与其余题总分的相关系数（样本方差）；任一方差为 0 时不计算',
  blankRate: '未作答率 = 未作答人数 ÷ 有识别结果的参考人数（仅客观题）',
  mastery: '掌握度 = 相关题目得分之和 ÷ 满分之和；少于 3 道题显示“数据不足”',
  reliability: '信度：Cronbach α（全部为 0/满分题时即 KR-20），参考人数少于 10 人不计算；测量标准误 = 标准差 × √(1 − α)',
} as const;
