/**
 * /analysis/grade (年级学情) and /analysis/class (班级学情): overview cards, the trend over the homework
 * of the range, class comparison, grade bands, the knowledge-point heat map, the homework and the
 * students (drill-down to /analysis/person). Ranks only where the school year shows them.
 */
import { Tag, Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../../shared/ui/lazy-table';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { AnalysisOverview } from '../../../shared/contract/analysis';
import { useAnalysisOptions, useOverview } from '../analysis-api';
import { AnalysisFilterBar } from '../analysis-filter-bar';
import { DENOMINATORS, NOT_COUNTED_HELP, num, pct } from '../analysis-format';
import { levelsHelp } from '../analysis-lines';
import { Explained, ExportButton, QueryState, Section, StatCard } from '../analysis-ui';
import styles from '../analysis.module.css';
import { EChart, type ChartItem } from '../echart';
import { useAnalysisFilters } from '../use-analysis-filters';

export function OverviewPage({ kind }: { kind: 'grade' | 'class' }) {
  const options = useAnalysisOptions();
  const { filters, update } = useAnalysisFilters(options.data);
  const params =
    kind === 'grade'
      ? { schoolYearId: filters.schoolYearId ?? undefined, subjectId: filters.subjectId ?? undefined }
      : { classId: filters.classId ?? undefined, subjectId: filters.subjectId ?? undefined };
  const ready =
    kind === 'grade'
      ? filters.schoolYearId !== null && filters.subjectId !== null
      : filters.classId !== null && filters.subjectId !== null;
  const overview = useOverview(kind, { ...params, from: filters.from ?? undefined, to: filters.to ?? undefined }, ready);
  return (
    <div className={styles.page}>
      <Typography.Title heading={3} style={{ marginBottom: 12 }}>
        {kind === 'grade' ? '年级学情' : '班级学情'}
      </Typography.Title>
      <QueryState
        loading={options.isLoading}
        error={options.error}
        empty={!options.data?.schoolYears.length}
        emptyText="暂无可查看的班级"
        emptyHint="学情分析显示您任教班级（或所任年级主任的学年）的作业成绩；学年、班级和任教由学校管理员在学校设置与团队管理中设置。"
      >
        {() => (
          <>
            <AnalysisFilterBar
              options={options.data!}
              filters={filters}
              update={update}
              show={{ classes: kind === 'class', range: true }}
            />
            <QueryState
              loading={overview.isLoading}
              error={overview.error}
              empty={!overview.data?.homework.length}
              emptyText="所选范围内暂无作业成绩"
              emptyHint="作业扫描、批阅后即计入学情；可换一个学科或时间范围。"
            >
              {() => <OverviewBody data={overview.data!} kind={kind} subjectId={filters.subjectId!} classId={filters.classId} />}
            </QueryState>
          </>
        )}
      </QueryState>
    </div>
  );
}

/** Where a homework of the view drills down to: its analysis, for the class when the view is one class. */
function homeworkAnalysisLink(homeworkId: number, kind: 'grade' | 'class', classId: number | null) {
  return `/assistant/analysis?homeworkId=${homeworkId}${kind === 'class' && classId !== null ? `&classId=${classId}` : ''}`;
}

function OverviewBody({
  data,
  kind,
  subjectId,
  classId,
}: {
  data: AnalysisOverview;
  kind: 'grade' | 'class';
  subjectId: number;
  classId: number | null;
}) {
  const { totals } = data;
  const navigate = useNavigate();
  const openHomework = ({ dataIndex }: ChartItem) => {
    const homework = data.homework[dataIndex];
    if (homework) void navigate(homeworkAnalysisLink(homework.id, kind, classId));
  };
  const openClass = (id: number | undefined) => {
    if (id !== undefined) void navigate(`/analysis/class?classId=${id}&subjectId=${subjectId}`);
  };
  const trend = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: {},
      grid: { left: 40, right: 16, bottom: 60 },
      xAxis: { type: 'category', data: data.homework.map((h) => h.title), axisLabel: { rotate: 30 } },
      yAxis: { type: 'value', max: 100, name: '得分率 %' },
      series: [
        {
          name: kind === 'grade' ? '年级得分率' : '本班得分率',
          type: 'line',
          data: data.homework.map((h) => round(h.summary.scoreRate)),
        },
        ...(kind === 'class'
          ? [{ name: '年级得分率', type: 'line', data: data.homework.map((h) => round(h.gradeScoreRate)) }]
          : []),
      ],
    }),
    [data, kind],
  );
  const classes = useMemo(
    () => ({
      tooltip: {},
      grid: { left: 40, right: 16, bottom: 30 },
      xAxis: { type: 'category', data: data.classes.map((c) => c.name) },
      yAxis: { type: 'value', max: 100, name: '得分率 %' },
      series: [{ type: 'bar', data: data.classes.map((c) => round(c.scoreRate)), label: { show: true, position: 'top' } }],
    }),
    [data],
  );
  const heat = useMemo(
    () => ({
      tooltip: {},
      // Room under the class names for the colour scale and its 0 / 100, which sat on the names.
      grid: { left: 120, right: 16, bottom: 96, top: 10 },
      xAxis: { type: 'category', data: data.heatmap.classes.map((c) => c.name) },
      yAxis: { type: 'category', data: data.heatmap.points.map((p) => p.name) },
      visualMap: {
        min: 0,
        max: 100,
        calculable: true,
        orient: 'horizontal',
        left: 'center',
        bottom: 0,
        inRange: { color: ['#f6465d', '#fadb14', '#52c41a'] },
      },
      series: [
        {
          type: 'heatmap',
          data: data.heatmap.cells.flatMap((row, y) => row.map((value, x) => [x, y, value === null ? '-' : round(value)])),
          label: { show: true },
        },
      ],
    }),
    [data],
  );
  const sheets = () => [
    {
      name: '作业',
      header: ['作业', '日期', '参考人数', '在册人数', '平均分', '满分', '得分率', '优秀率', '及格率'],
      rows: data.homework.map((h) => [
        h.title,
        h.startDate,
        h.summary.participation.participants,
        h.summary.participation.enrolled,
        num(h.summary.totals.mean, 2),
        h.summary.full,
        pct(h.summary.scoreRate),
        pct(h.summary.levels?.excellentRate),
        pct(h.summary.levels?.passRate),
      ]),
    },
    {
      name: '学生',
      header: ['学号', '姓名', '班级', '参加次数', '未参考次数', '得分率', '等级', ...(data.ranksAllowed ? ['排名'] : [])],
      rows: data.students.map((s) => [
        s.code,
        s.name,
        s.className,
        s.taken,
        s.absent,
        pct(s.scoreRate),
        s.band ?? '—',
        ...(data.ranksAllowed ? [s.rank] : []),
      ]),
    },
    {
      name: '班级对比',
      header: ['班级', '参考人次', '在册人次', '得分率'],
      rows: data.classes.map((c) => [c.name, c.participants, c.enrolled, pct(c.scoreRate)]),
    },
    {
      name: '知识点掌握度',
      header: ['知识点', '题数', ...data.heatmap.classes.map((c) => c.name)],
      rows: data.heatmap.points.map((p, y) => [
        p.name,
        p.questionCount,
        ...data.heatmap.cells[y]!.map((v) => (v === null ? '数据不足' : pct(v))),
      ]),
    },
  ];
  return (
    <>
      <div className={styles.cards}>
        <StatCard title="作业数" value={totals.homeworkCount} />
        <StatCard
          title={<Explained label="参试率" help={DENOMINATORS.participation} />}
          value={pct(totals.enrolled ? totals.participants / totals.enrolled : null)}
          hint={`参考 ${totals.participants} / 在册 ${totals.enrolled} 人次`}
        />
        <StatCard
          title={<Explained label="得分率" help={DENOMINATORS.scoreRate} />}
          value={pct(totals.scoreRate)}
          hint={kind === 'class' ? `年级 ${pct(totals.gradeScoreRate)}` : undefined}
        />
        {totals.gradeBands.map((b) => (
          <StatCard key={b.band} title={b.band} value={b.count} hint="人（按得分率分等级）" />
        ))}
      </div>
      <div className={styles.grid2}>
        <Section title="得分率趋势" extra={<Hint>点击作业查看其分析</Hint>}>
          <EChart option={trend} label="得分率趋势图" onItemClick={openHomework} />
        </Section>
        <Section
          title={kind === 'grade' ? '班级对比' : '学生得分率分布'}
          extra={kind === 'grade' ? <Hint>点击班级查看班级学情</Hint> : undefined}
        >
          {kind === 'grade' ? (
            <EChart
              option={classes}
              label="班级得分率对比图"
              onItemClick={({ dataIndex }) => openClass(data.classes[dataIndex]?.classId)}
            />
          ) : (
            <EChart
              label="学生得分率分布图"
              option={{
                tooltip: {},
                grid: { left: 40, right: 16, bottom: 40 },
                xAxis: { type: 'category', data: totals.bands.map((b) => b.label), axisLabel: { rotate: 30 } },
                yAxis: { type: 'value', name: '人数' },
                series: [{ type: 'bar', data: totals.bands.map((b) => b.count) }],
              }}
            />
          )}
        </Section>
      </div>
      <Section
        title={<Explained label="知识点掌握度" help={DENOMINATORS.mastery} />}
        extra={kind === 'grade' ? <Hint>点击格子查看该班学情</Hint> : undefined}
      >
        {data.heatmap.points.length ? (
          <EChart
            option={heat}
            height={Math.max(240, 28 * data.heatmap.points.length + 80)}
            label="知识点掌握度热力图"
            onItemClick={kind === 'grade' ? ({ category: [x] }) => openClass(data.heatmap.classes[x]?.id) : undefined}
          />
        ) : (
          <Typography.Text type="tertiary">暂无知识点数据</Typography.Text>
        )}
      </Section>
      <Section title="作业" extra={<ExportButton fileName={`${data.scope.title}-学情.xlsx`} sheets={sheets} />}>
        <LazyTable
          size="small"
          pagination={false}
          rowKey="id"
          dataSource={data.homework}
          columns={[
            {
              title: '作业',
              dataIndex: 'title',
              render: (_: unknown, h: AnalysisOverview['homework'][number]) => (
                <Link to={homeworkAnalysisLink(h.id, kind, classId)}>{h.title}</Link>
              ),
            },
            { title: '日期', dataIndex: 'startDate', width: 110 },
            {
              title: <Explained label="参考/在册" help={DENOMINATORS.participation} />,
              render: (_: unknown, h: AnalysisOverview['homework'][number]) =>
                `${h.summary.participation.participants}/${h.summary.participation.enrolled}`,
            },
            {
              title: '平均分',
              render: (_: unknown, h: AnalysisOverview['homework'][number]) =>
                `${num(h.summary.totals.mean)} / ${h.summary.full}`,
            },
            {
              title: <Explained label="得分率" help={DENOMINATORS.scoreRate} />,
              render: (_: unknown, h: AnalysisOverview['homework'][number]) => pct(h.summary.scoreRate),
            },
            ...(kind === 'class'
              ? [{ title: '年级得分率', render: (_: unknown, h: AnalysisOverview['homework'][number]) => pct(h.gradeScoreRate) }]
              : []),
            {
              title: <Explained label="优秀率" help={levelsHelp(data.lines)} />,
              render: (_: unknown, h: AnalysisOverview['homework'][number]) => pct(h.summary.levels?.excellentRate),
            },
            {
              title: <Explained label="及格率" help={levelsHelp(data.lines)} />,
              render: (_: unknown, h: AnalysisOverview['homework'][number]) => pct(h.summary.levels?.passRate),
            },
          ]}
        />
      </Section>
      <Section title="学生">
        <LazyTable
          size="small"
          rowKey="studentId"
          dataSource={data.students}
          pagination={{ pageSize: 20 }}
          columns={[
            { title: '学号', dataIndex: 'code', width: 110 },
            {
              title: '姓名',
              dataIndex: 'name',
              render: (_: unknown, s: AnalysisOverview['students'][number]) => (
                <Link to={`/analysis/person?studentId=${s.studentId}&subjectId=${subjectId}&classId=${s.classId}`}>{s.name}</Link>
              ),
            },
            { title: '班级', dataIndex: 'className' },
            {
              title: <Explained label="参加/未参考" help={NOT_COUNTED_HELP} />,
              render: (_: unknown, s: AnalysisOverview['students'][number]) => `${s.taken}/${s.absent}`,
            },
            {
              title: <Explained label="得分率" help={DENOMINATORS.scoreRate} />,
              render: (_: unknown, s: AnalysisOverview['students'][number]) => pct(s.scoreRate),
            },
            {
              title: '等级',
              render: (_: unknown, s: AnalysisOverview['students'][number]) => (s.band ? <Tag>{s.band}</Tag> : '—'),
            },
            ...(data.ranksAllowed ? [{ title: '排名', dataIndex: 'rank' }] : []),
          ]}
        />
      </Section>
    </>
  );
}

const round = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 10);

function Hint({ children }: { children: string }) {
  return (
    <Typography.Text type="tertiary" size="small" className={styles.noPrint}>
      {children}
    </Typography.Text>
  );
}
