/**
 * The homework report (作业报告, /assistant/papaerReport) as a Word document: the same figures as the
 * report page, from the same HomeworkAnalysis (so the same number everywhere): summary statistics with
 * their denominators, grade bands (no ranks, no names), score bands with a bar chart, the class
 * comparison, the question table, the questions to check with their text (formulas as Word equations
 * through paper-docx's Temml -> mathml2omml path) and knowledge-point mastery. Charts are drawn as SVG
 * and turned into PNG with sharp.
 */
import {
  AlignmentType,
  BorderStyle,
  Document,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  WidthType,
} from 'docx';
import sharp from 'sharp';
import type { HomeworkAnalysis } from '../../../src/shared/contract/analysis';
import { QUESTION_TYPE_LABELS } from '../../../src/shared/contract/papers';
import type { RateLines } from '../../../src/shared/lib/analysis-stats';
import { richParagraphs, textRun, type Drawing } from '../papers/paper-docx';

const pct = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : `${(value * 100).toFixed(digits)}%`;
const num = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : String(Math.round(value * 10 ** digits) / 10 ** digits);

const border = { style: BorderStyle.SINGLE, size: 4, color: '999999' };
const borders = { top: border, bottom: border, left: border, right: border };

function cell(text: string, header = false) {
  return new TableCell({
    borders,
    // Room around the figures (twips), so numbers do not touch the rules.
    margins: { top: 40, bottom: 40, left: 60, right: 60 },
    children: [new Paragraph({ children: [textRun(text, { bold: header }, 18)], alignment: AlignmentType.CENTER })],
  });
}

function table(header: string[], rows: (string | number)[][]) {
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [
      new TableRow({ tableHeader: true, children: header.map((h) => cell(h, true)) }),
      ...rows.map((row) => new TableRow({ children: row.map((v) => cell(String(v))) })),
    ],
  });
}

const heading = (text: string) =>
  new Paragraph({
    heading: HeadingLevel.HEADING_2,
    // Never alone at the foot of a page: kept with the table or text it introduces.
    keepNext: true,
    children: [textRun(text, { bold: true }, 26)],
    spacing: { before: 240, after: 120 },
  });
const para = (text: string) => new Paragraph({ children: [textRun(text)], spacing: { before: 100, after: 80 } });

/** A bar chart (Latin labels only: the server has no CJK font for SVG text) as PNG. */
export async function barChartPng(bars: { label: string; value: number; text: string }[], max: number): Promise<Buffer> {
  const width = 640;
  const height = 260;
  const left = 40;
  const bottom = 40;
  const top = 20;
  const slot = (width - left - 10) / Math.max(1, bars.length);
  const scale = (height - bottom - top) / Math.max(max, 1e-9);
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const rects = bars
    .map((bar, i) => {
      const h = bar.value * scale;
      const x = left + i * slot + slot * 0.15;
      const y = height - bottom - h;
      return `<rect x="${x}" y="${y}" width="${slot * 0.7}" height="${h}" fill="#3b82f6"/>
        <text x="${x + slot * 0.35}" y="${y - 4}" font-size="12" text-anchor="middle" font-family="DejaVu Sans, sans-serif">${escape(bar.text)}</text>
        <text x="${x + slot * 0.35}" y="${height - bottom + 16}" font-size="11" text-anchor="middle" font-family="DejaVu Sans, sans-serif">${escape(bar.label)}</text>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#ffffff"/>
    <line x1="${left}" y1="${height - bottom}" x2="${width - 10}" y2="${height - bottom}" stroke="#333"/>
    <line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" stroke="#333"/>${rects}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function renderHomeworkReportDocx(data: HomeworkAnalysis, lines: RateLines): Promise<Buffer> {
  const s = data.summary;
  const className = data.classId ? (data.classes.find((c) => c.id === data.classId)?.name ?? '') : '全部班级';
  const drawing: Drawing = { images: new Map(), maxImageWidth: 600 };
  const bandChart = await barChartPng(
    s.bands.map((b) => ({ label: b.label, value: b.count, text: String(b.count) })),
    Math.max(1, ...s.bands.map((b) => b.count)),
  );
  const rateChart = await barChartPng(
    data.questions.map((q) => ({
      label: String(q.no),
      value: q.scoreRate ?? 0,
      text: q.scoreRate === null ? '' : String(Math.round(q.scoreRate * 100)),
    })),
    1,
  );
  const flagged = data.questions.filter((q) => q.flags.length > 0);
  const points = [...data.knowledgePoints].sort((a, b) => (a.rawRate ?? 2) - (b.rawRate ?? 2));
  // Lines are whole percents or one decimal (学校设置 · 各学年学科分数线).
  const line = (fraction: number) => `${Math.round(fraction * 1000) / 10}%`;
  const linesText = `优秀 ≥ ${line(lines.excellent)}，良好 ≥ ${line(lines.good)}，及格 ≥ ${line(lines.pass)}，低分 < ${line(lines.low)}（占满分）`;

  const children = [
    new Paragraph({
      heading: HeadingLevel.TITLE,
      alignment: AlignmentType.CENTER,
      children: [textRun(`${data.homework.title} 作业报告`, { bold: true }, 36)],
    }),
    new Paragraph({
      alignment: AlignmentType.CENTER,
      children: [textRun(`${data.homework.subjectName} · ${data.homework.startDate} 至 ${data.homework.dueDate} · ${className}`)],
      spacing: { after: 200 },
    }),
    heading('一、总体情况'),
    table(
      ['在册人数', '参考人数', '未参考', '参试率', '满分', '平均分', '标准差', '中位数', '最高分', '最低分', '得分率'],
      [
        [
          s.participation.enrolled,
          s.participation.participants,
          s.participation.absent,
          pct(s.participation.rate),
          s.full,
          num(s.totals.mean, 2),
          num(s.totals.sd, 2),
          num(s.totals.median, 1),
          num(s.totals.max, 1),
          num(s.totals.min, 1),
          pct(s.scoreRate),
        ],
      ],
    ),
    para(
      `优秀率 ${pct(s.levels?.excellentRate)}，良好率 ${pct(s.levels?.goodRate)}，及格率 ${pct(s.levels?.passRate)}，低分率 ${pct(s.levels?.lowRate)}。分数线：${linesText}。未参考 = 缺考、未扫描和阅卷中的学生，不按 0 分计；各比率的分母为参考人数。`,
    ),
    s.reliability
      ? para(
          `信度（${s.reliability.method === 'KR-20' ? 'KR-20' : 'Cronbach α'}）${num(s.reliability.alpha, 2)}（${s.reliability.band}），测量标准误 ${num(s.reliability.sem, 2)}。`,
        )
      : para('参考人数不足 10 人，不计算信度。'),
    heading('二、等级分布'),
    table(
      s.gradeBands.map((b) => b.band),
      [s.gradeBands.map((b) => `${b.count} 人`)],
    ),
    para('按总分占满分的比例分等级，不排名、不公布个人成绩。'),
    heading('三、分数段'),
    table(
      s.bands.map((b) => b.label),
      [s.bands.map((b) => b.count)],
    ),
    new Paragraph({ children: [new ImageRun({ type: 'png', data: bandChart, transformation: { width: 560, height: 228 } })] }),
    para('横轴：占满分的百分比段；纵轴：人数。'),
    heading('四、班级对比'),
    table(
      ['班级', '参考/在册', '平均分', '得分率', '及格率', '优秀率'],
      [...data.classSummaries, ...(data.classSummaries.length > 1 ? [{ name: '全部班级', summary: data.gradeSummary }] : [])].map(
        (c) => [
          c.name,
          `${c.summary.participation.participants}/${c.summary.participation.enrolled}`,
          num(c.summary.totals.mean, 2),
          pct(c.summary.scoreRate),
          pct(c.summary.levels?.passRate),
          pct(c.summary.levels?.excellentRate),
        ],
      ),
    ),
    heading('五、小题分析'),
    table(
      ['题号', '题型', '满分', '平均分', '得分率', '得分率等级', '区分度', '未作答率', '提示'],
      data.questions.map((q) => [
        q.no,
        QUESTION_TYPE_LABELS[q.type],
        q.full,
        num(q.mean, 2),
        pct(q.scoreRate),
        q.scoreRateBand ?? '—',
        num(q.discrimination, 2),
        pct(q.blankRate),
        q.flags.join('、') || '',
      ]),
    ),
    new Paragraph({ children: [new ImageRun({ type: 'png', data: rateChart, transformation: { width: 560, height: 228 } })] }),
    para('横轴：题号；纵轴：得分率（%）。'),
    heading('六、需要检查的题目'),
    ...(flagged.length
      ? flagged.flatMap((q) => [
          ...richParagraphs(q.stem, drawing, [textRun(`第 ${q.no} 题（${q.flags.join('、')}）：`, { bold: true })]),
          ...(q.options
            ? [
                para(
                  `选项分布：${q.options.options.map((o) => `${o.label === 'T' ? '对' : o.label === 'F' ? '错' : o.label}${o.isKey ? '（答案）' : ''} ${o.count} 人`).join('，')}；未作答 ${q.options.blankCount} 人。`,
                ),
              ]
            : []),
        ])
      : [para('没有需要检查的题目。')]),
    heading('七、知识点掌握度'),
    points.length
      ? table(
          ['知识点', '题数', '掌握度'],
          points.map((p) => [p.name, p.questionCount, p.mastery === null ? `数据不足（${pct(p.rawRate)}）` : pct(p.mastery)]),
        )
      : para('本作业的题目没有标注知识点。'),
    para('掌握度 = 标注该知识点的题目的得分之和 / 满分之和；少于 3 题为数据不足。'),
  ];
  const document = new Document({
    creator: '智慧作业',
    title: `${data.homework.title} 作业报告`,
    sections: [{ children }],
  });
  return Packer.toBuffer(document);
}
