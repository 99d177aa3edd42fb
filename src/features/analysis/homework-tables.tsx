/**
 * The tables of one homework shared by 数据分析 and 报告: summary cards, the per-question table (得分率,
 * 区分度, 题总相关, 未作答率, flags), class comparison and knowledge points, and their Excel sheets.
 */
import { Tag, Tooltip } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../shared/ui/lazy-table';
import type { HomeworkAnalysis, HomeworkQuestion } from '../../shared/contract/analysis';
import { STUDENT_STATUS_LABELS } from '../../shared/contract/marking';
import { QUESTION_TYPE_LABELS } from '../../shared/contract/papers';
import { DENOMINATORS, num, pct } from './analysis-format';
import { levelsHelp, linesText } from './analysis-lines';
import { Explained, StatCard, type SheetData } from './analysis-ui';
import styles from './analysis.module.css';

export function SummaryCards({ data }: { data: HomeworkAnalysis }) {
  const s = data.summary;
  return (
    <div className={styles.cards}>
      <StatCard
        title={<Explained label="参考 / 在册" help={DENOMINATORS.participation} />}
        value={`${s.participation.participants} / ${s.participation.enrolled}`}
        hint={`未参考 ${s.participation.absent} 人 · 参试率 ${pct(s.participation.rate)}`}
      />
      <StatCard title="平均分" value={num(s.totals.mean)} hint={`满分 ${s.full} · 标准差 ${num(s.totals.sd, 2)}`} />
      <StatCard title="中位数 / 众数" value={num(s.totals.median)} hint={`众数 ${s.totals.mode.slice(0, 3).join('、') || '—'}`} />
      <StatCard title="最高 / 最低" value={`${num(s.totals.max)} / ${num(s.totals.min)}`} />
      <StatCard
        title={<Explained label="得分率" help={DENOMINATORS.scoreRate} />}
        value={pct(s.scoreRate)}
        hint={`年级 ${pct(data.gradeSummary.scoreRate)}`}
      />
      {/* Each rate to 0.1 %, as the class table, the Excel and the Word report write it. */}
      <StatCard
        title={<Explained label="及格率" help={levelsHelp(data.lines)} />}
        value={pct(s.levels?.passRate)}
        hint={
          <Phrases
            parts={[
              `优秀率 ${pct(s.levels?.excellentRate)}`,
              `良好率 ${pct(s.levels?.goodRate)}`,
              `低分率 ${pct(s.levels?.lowRate)}`,
            ]}
          />
        }
      />
      <StatCard
        title={<Explained label="信度" help={DENOMINATORS.reliability} />}
        value={s.reliability ? `${s.reliability.alpha.toFixed(2)}` : '—'}
        hint={
          s.reliability ? (
            <Phrases
              parts={[
                s.reliability.method === 'alpha' ? 'Cronbach α' : 'KR-20',
                s.reliability.band,
                `测量标准误 ${s.reliability.sem.toFixed(2)}`,
              ]}
            />
          ) : (
            '参考人数不足 10 人'
          )
        }
      />
    </div>
  );
}

/** Short phrases joined by · that a narrow card wraps between, never inside one (良好率 35.7%). */
function Phrases({ parts }: { parts: string[] }) {
  return parts.map((part, i) => (
    <span key={part}>
      {i > 0 ? ' · ' : ''}
      <span className={styles.phrase}>{part}</span>
    </span>
  ));
}

export function QuestionTable({ data, detailed = true }: { data: HomeworkAnalysis; detailed?: boolean }) {
  return (
    <LazyTable
      size="small"
      pagination={false}
      rowKey="no"
      dataSource={data.questions}
      columns={[
        { title: '题号', dataIndex: 'no', width: 60 },
        { title: '题型', render: (_: unknown, q: HomeworkQuestion) => QUESTION_TYPE_LABELS[q.type], width: 80 },
        { title: '满分', dataIndex: 'full', width: 60 },
        { title: '平均分', render: (_: unknown, q: HomeworkQuestion) => num(q.mean, 2), width: 80 },
        {
          title: <Explained label="得分率" help={DENOMINATORS.scoreRate} />,
          render: (_: unknown, q: HomeworkQuestion) => `${pct(q.scoreRate)} ${q.scoreRateBand ?? ''}`,
        },
        {
          title: <Explained label="区分度" help={DENOMINATORS.discrimination} />,
          render: (_: unknown, q: HomeworkQuestion) => `${num(q.discrimination, 2)} ${q.discriminationBand ?? ''}`,
        },
        ...(detailed
          ? [
              {
                title: <Explained label="题总相关" help={DENOMINATORS.itemRest} />,
                render: (_: unknown, q: HomeworkQuestion) => num(q.itemRest, 1),
              },
              {
                title: <Explained label="未作答率" help={DENOMINATORS.blankRate} />,
                render: (_: unknown, q: HomeworkQuestion) => pct(q.blankRate),
              },
            ]
          : []),
        {
          title: '请检查此题',
          render: (_: unknown, q: HomeworkQuestion) =>
            q.flags.length ? (
              <Tooltip content="区分度低于 0.20 或为负、得分率低于 0.20、或高分组多数选了同一干扰项">
                <span>
                  {q.flags.map((f) => (
                    <Tag key={f} color="red" size="small" style={{ marginRight: 4 }}>
                      {f}
                    </Tag>
                  ))}
                </span>
              </Tooltip>
            ) : (
              '—'
            ),
        },
      ]}
    />
  );
}

export function ClassTable({ data }: { data: HomeworkAnalysis }) {
  return (
    <LazyTable
      size="small"
      pagination={false}
      rowKey="classId"
      dataSource={[...data.classSummaries, { classId: 0, name: '年级', summary: data.gradeSummary }]}
      columns={[
        { title: '班级', dataIndex: 'name' },
        {
          title: <Explained label="参考/在册" help={DENOMINATORS.participation} />,
          render: (_: unknown, c: HomeworkAnalysis['classSummaries'][number]) =>
            `${c.summary.participation.participants}/${c.summary.participation.enrolled}`,
        },
        { title: '平均分', render: (_: unknown, c: HomeworkAnalysis['classSummaries'][number]) => num(c.summary.totals.mean) },
        {
          title: '与年级差',
          render: (_: unknown, c: HomeworkAnalysis['classSummaries'][number]) =>
            diff(c.summary.totals.mean, data.gradeSummary.totals.mean),
        },
        {
          title: <Explained label="得分率" help={DENOMINATORS.scoreRate} />,
          render: (_: unknown, c: HomeworkAnalysis['classSummaries'][number]) => pct(c.summary.scoreRate),
        },
        {
          title: <Explained label="优秀率" help={levelsHelp(data.lines)} />,
          render: (_: unknown, c: HomeworkAnalysis['classSummaries'][number]) => pct(c.summary.levels?.excellentRate),
        },
        {
          title: <Explained label="及格率" help={levelsHelp(data.lines)} />,
          render: (_: unknown, c: HomeworkAnalysis['classSummaries'][number]) => pct(c.summary.levels?.passRate),
        },
      ]}
    />
  );
}

const diff = (a: number | null, b: number | null) =>
  a === null || b === null ? '—' : `${a - b >= 0 ? '+' : ''}${(a - b).toFixed(1)}`;

/** The Excel sheets of one homework: the figures the pages show, the same numbers. */
export function homeworkSheets(data: HomeworkAnalysis): SheetData[] {
  const s = data.summary;
  return [
    {
      name: '概况',
      header: ['指标', '数值'],
      rows: [
        ['参考人数', s.participation.participants],
        ['在册人数', s.participation.enrolled],
        ['未参考人数', s.participation.absent],
        ['平均分', num(s.totals.mean, 2)],
        ['标准差', num(s.totals.sd, 2)],
        ['中位数', num(s.totals.median, 2)],
        ['最高分', s.totals.max],
        ['最低分', s.totals.min],
        ['满分', s.full],
        ['得分率', pct(s.scoreRate)],
        ['优秀率', pct(s.levels?.excellentRate)],
        ['良好率', pct(s.levels?.goodRate)],
        ['及格率', pct(s.levels?.passRate)],
        ['低分率', pct(s.levels?.lowRate)],
        ['分数线', linesText(data.lines)],
        ['信度', s.reliability ? s.reliability.alpha.toFixed(2) : '—'],
      ],
    },
    {
      name: '小题分析',
      header: [
        '题号',
        '题型',
        '满分',
        '平均分',
        '得分率',
        '得分率等级',
        '区分度',
        '区分度等级',
        '题总相关',
        '未作答率',
        '请检查此题',
      ],
      rows: data.questions.map((q) => [
        q.no,
        QUESTION_TYPE_LABELS[q.type],
        q.full,
        num(q.mean, 2),
        pct(q.scoreRate),
        q.scoreRateBand,
        num(q.discrimination, 2),
        q.discriminationBand,
        num(q.itemRest, 1),
        pct(q.blankRate),
        q.flags.join('、'),
      ]),
    },
    {
      name: '班级对比',
      header: ['班级', '参考人数', '在册人数', '平均分', '得分率', '优秀率', '及格率'],
      rows: [...data.classSummaries, { classId: 0, name: '年级', summary: data.gradeSummary }].map((c) => [
        c.name,
        c.summary.participation.participants,
        c.summary.participation.enrolled,
        num(c.summary.totals.mean, 2),
        pct(c.summary.scoreRate),
        pct(c.summary.levels?.excellentRate),
        pct(c.summary.levels?.passRate),
      ]),
    },
    {
      name: '学生成绩',
      header: ['学号', '姓名', '班级', '总分', '等级', '对', '错', '未作答', ...data.questions.map((q) => `第${q.no}题`)],
      rows: data.students.map((st) => [
        st.code,
        st.name,
        st.className,
        // Not counted (缺考, 未扫描 or 阅卷中, by name): no total and no right / wrong / blank counts, never 0.
        st.absent ? STUDENT_STATUS_LABELS[st.status] : st.total,
        st.band ?? '—',
        ...(st.absent ? [null, null, null] : [st.right, st.wrong, st.blank]),
        ...st.scores,
      ]),
    },
    {
      name: '知识点',
      header: ['知识点', '题数', '掌握度'],
      rows: data.knowledgePoints.map((p) => [p.name, p.questionCount, p.mastery === null ? '数据不足' : pct(p.mastery)]),
    },
  ];
}
