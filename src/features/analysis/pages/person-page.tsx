/**
 * /analysis/person (学生学情): one student's trend over the range (得分率 per homework beside the class,
 * the grade band of each), right / wrong / blank counts, strong and weak knowledge points (with the
 * number of questions behind them) and wrong questions. Prints as a one-page report for a parents'
 * meeting (打印报告). The student is picked here (班级, then 学生, searchable by name or 学号) or from the
 * grade or class page's student list.
 */
import { IconPrint } from '@douyinfe/semi-icons';
import { Button, Tag, Typography } from '@douyinfe/semi-ui-19';
import { useQuery } from '@tanstack/react-query';
import { LazyTable } from '../../../shared/ui/lazy-table';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { classRosterSchema, type PersonAnalysis } from '../../../shared/contract/analysis';
import { LazyFormulaLine, plain } from '../../../shared/ui/lazy-rich-text';
import { useAnalysisOptions, usePerson } from '../analysis-api';
import { useAnalysisServices } from '../analysis-services';
import { AnalysisFilterBar } from '../analysis-filter-bar';
import { DENOMINATORS, NOT_COUNTED_HELP, num, pct } from '../analysis-format';
import { Explained, ExportButton, QueryState, Section, StatCard } from '../analysis-ui';
import { LabelledSelect } from '../../../shared/ui/labelled-select';
import styles from '../analysis.module.css';
import { EChart } from '../echart';
import { useAnalysisFilters, type AnalysisFilters } from '../use-analysis-filters';

export function PersonPage() {
  const options = useAnalysisOptions();
  const { filters, update } = useAnalysisFilters(options.data);
  const ready = filters.studentId !== null && filters.subjectId !== null;
  const person = usePerson(
    {
      studentId: filters.studentId ?? undefined,
      subjectId: filters.subjectId ?? undefined,
      from: filters.from ?? undefined,
      to: filters.to ?? undefined,
    },
    ready,
  );
  return (
    <div className={styles.page}>
      <Typography.Title heading={3} style={{ marginBottom: 12 }} className={styles.noPrint}>
        学生学情
      </Typography.Title>
      <QueryState loading={options.isLoading} error={options.error}>
        {() => (
          <>
            <AnalysisFilterBar
              options={options.data!}
              filters={filters}
              update={update}
              show={{ classes: true, range: true }}
              extra={<StudentSelect filters={filters} update={update} current={person.data?.student} />}
            />
            {!ready ? (
              <Typography.Paragraph>
                请选择一名学生，或从 <Link to="/analysis/grade">年级学情</Link> 或 <Link to="/analysis/class">班级学情</Link>{' '}
                的学生列表中打开。
              </Typography.Paragraph>
            ) : (
              <QueryState loading={person.isLoading} error={person.error}>
                {() => <PersonBody data={person.data!} />}
              </QueryState>
            )}
          </>
        )}
      </QueryState>
    </div>
  );
}

/**
 * A class's students (id, name, 学号): the light roster, not the class view's figures. Here rather than in
 * analysis-api.ts, which every analysis page loads (作业讲评 sits at its 300 KiB budget).
 */
function useClassRoster(classId: number | null, subjectId: number | null) {
  const { http } = useAnalysisServices();
  return useQuery({
    queryKey: ['analysis', 'class-roster', classId, subjectId],
    queryFn: () => http.get('/api/analysis/class/students', { classId: classId!, subjectId: subjectId! }, classRosterSchema),
    enabled: classId !== null && subjectId !== null,
  });
}

/** 学生: the class's students from the light roster (id, name, 学号), searchable by name or 学号. */
function StudentSelect({
  filters,
  update,
  current,
}: {
  filters: AnalysisFilters;
  update: (changes: Partial<Record<keyof AnalysisFilters, number | null>>) => void;
  current: { id: number; name: string; code: string } | undefined;
}) {
  const roster = useClassRoster(filters.classId, filters.subjectId);
  const students = roster.data?.students.map((s) => ({ value: s.id, label: `${s.name}（${s.code}）` })) ?? [];
  if (current && !students.some((s) => s.value === current.id)) {
    students.unshift({ value: current.id, label: `${current.name}（${current.code}）` });
  }
  return (
    <LabelledSelect
      label="学生"
      prefix="学生"
      placeholder="请选择学生"
      style={{ minWidth: 200 }}
      filter
      loading={roster.isLoading}
      emptyContent={roster.isError ? '学生名单加载失败' : '该班暂无学生'}
      value={filters.studentId ?? undefined}
      optionList={students}
      onChange={(value) => update({ studentId: value as number })}
    />
  );
}

function PersonBody({ data }: { data: PersonAnalysis }) {
  const trend = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: {},
      grid: { left: 40, right: 16, bottom: 60 },
      xAxis: { type: 'category', data: data.trend.map((t) => t.title), axisLabel: { rotate: 30 } },
      yAxis: { type: 'value', max: 100, name: '得分率 %' },
      series: [
        {
          name: data.student.name,
          type: 'line',
          connectNulls: false,
          data: data.trend.map((t) => (t.scoreRate === null ? null : Math.round(t.scoreRate * 1000) / 10)),
        },
        {
          name: '班级',
          type: 'line',
          lineStyle: { type: 'dashed' },
          data: data.trend.map((t) => (t.classScoreRate === null ? null : Math.round(t.classScoreRate * 1000) / 10)),
        },
      ],
    }),
    [data],
  );
  const rated = data.knowledgePoints.filter((p) => p.mastery !== null).sort((a, b) => b.mastery! - a.mastery!);
  const strong = rated.slice(0, 5);
  const weak = [...rated].reverse().slice(0, 5);
  const total = data.trend.reduce(
    (acc, t) => ({ right: acc.right + t.right, wrong: acc.wrong + t.wrong, blank: acc.blank + t.blank }),
    { right: 0, wrong: 0, blank: 0 },
  );
  const sheets = () => [
    {
      name: '成绩趋势',
      header: ['作业', '日期', '得分', '满分', '得分率', '班级得分率', '等级', '对', '错', '未作答'],
      rows: data.trend.map((t) => [
        t.title,
        t.startDate,
        t.absent ? '未参考' : t.total,
        t.full,
        pct(t.scoreRate),
        pct(t.classScoreRate),
        t.band ?? '—',
        t.right,
        t.wrong,
        t.blank,
      ]),
    },
    {
      name: '知识点',
      header: ['知识点', '题数', '掌握度'],
      rows: data.knowledgePoints.map((p) => [p.name, p.questionCount, p.mastery === null ? '数据不足' : pct(p.mastery)]),
    },
    {
      name: '错题',
      header: ['作业', '题号', '得分', '满分', '题目'],
      rows: data.wrongQuestions.map((w) => [w.title, w.no, w.score, w.full, plain(w.stem)]),
    },
  ];
  return (
    <div className={`${styles.report} ${styles.onePage}`}>
      <div className={styles.sectionHead}>
        <Typography.Title heading={4}>
          {data.student.name}（{data.student.className}，{data.student.code}）· {data.subject.name}
        </Typography.Title>
        <span className={styles.noPrint} style={{ display: 'flex', gap: 8 }}>
          <Button icon={<IconPrint />} onClick={() => window.print()}>
            打印报告
          </Button>
          <ExportButton fileName={`${data.student.name}-${data.subject.name}-学情.xlsx`} sheets={sheets} />
        </span>
      </div>
      <div className={styles.cards}>
        <StatCard title="等级" value={data.summary.band ?? '—'} hint="优秀 / 良好 / 合格 / 待合格" />
        <StatCard
          title={<Explained label="得分率" help={DENOMINATORS.scoreRate} />}
          value={pct(data.summary.scoreRate)}
          hint="所参加作业得分之和 ÷ 满分之和"
        />
        <StatCard title="参加 / 未参考" value={`${data.summary.taken} / ${data.summary.absent}`} hint={NOT_COUNTED_HELP} />
        <StatCard
          title="对 / 错 / 未作答"
          value={`${total.right} / ${total.wrong} / ${total.blank}`}
          hint="题数；部分得分计为错"
        />
      </div>
      <Section title="得分率趋势">
        <EChart option={trend} label="得分率趋势图" height={240} />
      </Section>
      <LazyTable
        size="small"
        pagination={false}
        rowKey="homeworkId"
        dataSource={data.trend}
        className={styles.wideTable}
        columns={[
          { title: '作业', dataIndex: 'title' },
          { title: '日期', dataIndex: 'startDate', width: 120 },
          {
            title: '得分',
            render: (_: unknown, t: PersonAnalysis['trend'][number]) =>
              t.absent ? <Tag color="grey">未参考</Tag> : `${num(t.total)} / ${t.full}`,
          },
          {
            title: <Explained label="得分率" help={DENOMINATORS.scoreRate} />,
            render: (_: unknown, t: PersonAnalysis['trend'][number]) => pct(t.scoreRate),
          },
          { title: '等级', render: (_: unknown, t: PersonAnalysis['trend'][number]) => t.band ?? '—' },
          ...(data.ranksAllowed
            ? [
                { title: '班级排名', dataIndex: 'classRank' },
                { title: '年级排名', dataIndex: 'gradeRank' },
              ]
            : []),
        ]}
      />
      <div className={styles.grid2}>
        <Section title={<Explained label="优势知识点" help={DENOMINATORS.mastery} />}>
          <PointList points={strong} />
        </Section>
        <Section title={<Explained label="薄弱知识点" help={DENOMINATORS.mastery} />}>
          <PointList points={weak} />
        </Section>
      </div>
      <Section title={`错题（${data.wrongQuestions.length}）`}>
        <LazyTable
          size="small"
          pagination={{ pageSize: 10 }}
          rowKey={(w?: PersonAnalysis['wrongQuestions'][number]) => `${w?.homeworkId}:${w?.no}`}
          dataSource={data.wrongQuestions}
          columns={[
            { title: '作业', dataIndex: 'title', width: 160 },
            { title: '题号', dataIndex: 'no', width: 60 },
            {
              title: '得分',
              render: (_: unknown, w: PersonAnalysis['wrongQuestions'][number]) => `${w.score} / ${w.full}`,
              width: 80,
            },
            {
              title: '题目',
              className: styles.wrapCell,
              render: (_: unknown, w: PersonAnalysis['wrongQuestions'][number]) => <LazyFormulaLine text={w.stem} />,
            },
          ]}
        />
      </Section>
    </div>
  );
}

function PointList({ points }: { points: PersonAnalysis['knowledgePoints'] }) {
  if (points.length === 0) return <Typography.Text type="tertiary">数据不足（每个知识点至少需要 3 道题）</Typography.Text>;
  return (
    <ul style={{ margin: 0, paddingLeft: 18 }}>
      {points.map((p) => (
        <li key={p.id}>
          {p.name}：{pct(p.mastery)}（{p.questionCount} 题）
        </li>
      ))}
    </ul>
  );
}
