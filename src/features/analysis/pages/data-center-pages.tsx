/**
 * The grade director's data centre: /dataCenter/subject (学科统计), /dataCenter/correctScore (作业批改报表)
 * and /dataCenter/averageScore (班级均分及小题对比). The server answers 403 很抱歉，您暂无该操作权限 to
 * everyone else; the pages show that message.
 */
import { Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../../shared/ui/lazy-table';
import type { ReactNode } from 'react';
import type { AverageScore, CorrectScore, SubjectStats } from '../../../shared/contract/analysis';
import { MESSAGES } from '../../../shared/contract/envelope';
import { useAnalysisOptions, useDataCenter } from '../analysis-api';
import { AnalysisFilterBar } from '../analysis-filter-bar';
import { DENOMINATORS, num, pct } from '../analysis-format';
import { LEVELS_PER_HOMEWORK } from '../analysis-lines';
import { Explained, ExportButton, QueryState, Section } from '../analysis-ui';
import styles from '../analysis.module.css';
import { EChart } from '../echart';
import { useAnalysisFilters } from '../use-analysis-filters';

function DataCenterFrame({
  title,
  show,
  children,
}: {
  title: string;
  show: { subject?: boolean; homework?: boolean };
  children: (filters: ReturnType<typeof useAnalysisFilters>['filters']) => ReactNode;
}) {
  const options = useAnalysisOptions();
  const { filters, update } = useAnalysisFilters(options.data);
  return (
    <div className={styles.page}>
      <Typography.Title heading={3} style={{ marginBottom: 12 }}>
        {title}
      </Typography.Title>
      <QueryState loading={options.isLoading} error={options.error}>
        {() =>
          options.data!.gradeDirector ? (
            <>
              <AnalysisFilterBar
                options={options.data!}
                filters={filters}
                update={update}
                show={{ subject: show.subject ?? false, homework: show.homework }}
              />
              {children(filters)}
            </>
          ) : (
            <Forbidden />
          )
        }
      </QueryState>
    </div>
  );
}

function Forbidden() {
  return (
    <Typography.Paragraph type="danger" style={{ margin: '64px 0', textAlign: 'center' }}>
      {MESSAGES.forbidden}
    </Typography.Paragraph>
  );
}

const errorIs403 = (error: unknown) => (error as { status?: number } | null)?.status === 403;

export function SubjectStatsPage() {
  return (
    <DataCenterFrame title="学科统计" show={{}}>
      {(filters) => <SubjectStatsBody schoolYearId={filters.schoolYearId} />}
    </DataCenterFrame>
  );
}

function SubjectStatsBody({ schoolYearId }: { schoolYearId: number | null }) {
  const report = useDataCenter('subject', { schoolYearId: schoolYearId ?? undefined }, schoolYearId !== null);
  if (errorIs403(report.error)) return <Forbidden />;
  return (
    <QueryState loading={report.isLoading} error={report.error} empty={!report.data?.subjects.length}>
      {() => {
        const data: SubjectStats = report.data!;
        const classNames = data.subjects[0]?.classes.map((c) => c.name) ?? [];
        return (
          <>
            <EChart
              label="各学科班级得分率"
              option={{
                tooltip: { trigger: 'axis' },
                legend: {},
                grid: { left: 40, right: 16, bottom: 30 },
                xAxis: { type: 'category', data: classNames },
                yAxis: { type: 'value', max: 100, name: '得分率 %' },
                series: data.subjects.map((s) => ({
                  name: s.name,
                  type: 'bar',
                  data: s.classes.map((c) => (c.scoreRate === null ? null : Math.round(c.scoreRate * 1000) / 10)),
                })),
              }}
            />
            <Section
              title={data.schoolYear.name}
              extra={
                <ExportButton
                  fileName={`${data.schoolYear.name}-学科统计.xlsx`}
                  sheets={() => [
                    {
                      name: '学科统计',
                      header: ['学科', '作业数', '参考人次', '得分率', '及格率', '优秀率', ...classNames],
                      rows: data.subjects.map((s) => [
                        s.name,
                        s.homeworkCount,
                        s.participations,
                        pct(s.scoreRate),
                        pct(s.passRate),
                        pct(s.excellentRate),
                        ...s.classes.map((c) => pct(c.scoreRate)),
                      ]),
                    },
                  ]}
                />
              }
            >
              <LazyTable
                size="small"
                pagination={false}
                rowKey="subjectId"
                dataSource={data.subjects}
                columns={[
                  { title: '学科', dataIndex: 'name' },
                  { title: '作业数', dataIndex: 'homeworkCount' },
                  { title: '参考人次', dataIndex: 'participations' },
                  {
                    title: <Explained label="得分率" help={DENOMINATORS.scoreRate} />,
                    render: (_: unknown, s: SubjectStats['subjects'][number]) => pct(s.scoreRate),
                  },
                  {
                    title: <Explained label="及格率" help={LEVELS_PER_HOMEWORK} />,
                    render: (_: unknown, s: SubjectStats['subjects'][number]) => pct(s.passRate),
                  },
                  {
                    title: <Explained label="优秀率" help={LEVELS_PER_HOMEWORK} />,
                    render: (_: unknown, s: SubjectStats['subjects'][number]) => pct(s.excellentRate),
                  },
                  ...classNames.map((name, i) => ({
                    title: name,
                    render: (_: unknown, s: SubjectStats['subjects'][number]) => pct(s.classes[i]?.scoreRate),
                  })),
                ]}
              />
            </Section>
          </>
        );
      }}
    </QueryState>
  );
}

export function CorrectScorePage() {
  return (
    <DataCenterFrame title="作业批改报表" show={{ subject: true }}>
      {(filters) => <CorrectScoreBody schoolYearId={filters.schoolYearId} subjectId={filters.subjectId} />}
    </DataCenterFrame>
  );
}

function CorrectScoreBody({ schoolYearId, subjectId }: { schoolYearId: number | null; subjectId: number | null }) {
  const report = useDataCenter(
    'correct-score',
    { schoolYearId: schoolYearId ?? undefined, subjectId: subjectId ?? undefined },
    schoolYearId !== null,
  );
  if (errorIs403(report.error)) return <Forbidden />;
  return (
    <QueryState loading={report.isLoading} error={report.error} empty={!report.data?.rows.length}>
      {() => {
        const data: CorrectScore = report.data!;
        type Row = CorrectScore['rows'][number];
        return (
          <Section
            title={data.schoolYear.name}
            extra={
              <ExportButton
                fileName={`${data.schoolYear.name}-作业批改报表.xlsx`}
                sheets={() => [
                  {
                    name: '作业批改报表',
                    header: [
                      '教师',
                      '班级',
                      '学科',
                      '布置作业',
                      '应交份数',
                      '已扫描份数',
                      '扫描率',
                      '主观题批改',
                      '按时批改',
                      '按时率',
                      '截止后批改用时中位数(小时)',
                    ],
                    rows: data.rows.map((r) => [
                      r.teacherName,
                      r.className,
                      r.subjectName,
                      r.assigned,
                      r.expectedSheets,
                      r.scannedSheets,
                      pct(r.expectedSheets ? r.scannedSheets / r.expectedSheets : null),
                      r.markedTasks,
                      r.onTimeTasks,
                      pct(r.markedTasks ? r.onTimeTasks / r.markedTasks : null),
                      num(r.medianHoursAfterDue),
                    ]),
                  },
                ]}
              />
            }
          >
            <LazyTable
              size="small"
              pagination={false}
              rowKey={(r?: Row) => `${r?.teacherId}:${r?.classId}`}
              dataSource={data.rows}
              columns={[
                { title: '教师', dataIndex: 'teacherName' },
                { title: '班级', dataIndex: 'className' },
                { title: '学科', dataIndex: 'subjectName' },
                { title: '布置作业', dataIndex: 'assigned' },
                {
                  title: <Explained label="扫描率" help="已扫描份数 ÷ 应交份数（班级在册人数 × 作业数）" />,
                  render: (_: unknown, r: Row) =>
                    `${pct(r.expectedSheets ? r.scannedSheets / r.expectedSheets : null)}（${r.scannedSheets}/${r.expectedSheets}）`,
                },
                { title: '主观题批改', dataIndex: 'markedTasks' },
                {
                  title: <Explained label="按时率" help="截止日当天结束前批改的主观题份数 ÷ 已批改份数" />,
                  render: (_: unknown, r: Row) => pct(r.markedTasks ? r.onTimeTasks / r.markedTasks : null),
                },
                {
                  title: <Explained label="批改用时" help="从截止日零点到批改完成的小时数的中位数" />,
                  render: (_: unknown, r: Row) => (r.medianHoursAfterDue === null ? '—' : `${num(r.medianHoursAfterDue)} 小时`),
                },
              ]}
            />
          </Section>
        );
      }}
    </QueryState>
  );
}

export function AverageScorePage() {
  return (
    <DataCenterFrame title="班级均分及小题对比" show={{ subject: true, homework: true }}>
      {(filters) => (
        <AverageScoreBody schoolYearId={filters.schoolYearId} subjectId={filters.subjectId} homeworkId={filters.homeworkId} />
      )}
    </DataCenterFrame>
  );
}

function AverageScoreBody({
  schoolYearId,
  subjectId,
  homeworkId,
}: {
  schoolYearId: number | null;
  subjectId: number | null;
  homeworkId: number | null;
}) {
  const report = useDataCenter(
    'average-score',
    { schoolYearId: schoolYearId ?? undefined, subjectId: subjectId ?? undefined, homeworkId: homeworkId ?? undefined },
    schoolYearId !== null,
  );
  if (errorIs403(report.error)) return <Forbidden />;
  return (
    <QueryState loading={report.isLoading} error={report.error} empty={!report.data?.homework}>
      {() => {
        const data: AverageScore = report.data!;
        type Row = AverageScore['classes'][number];
        // The grade against itself: 0, unless it has no mean (no student 已阅完), when there is nothing to compare.
        const rows = [
          ...data.classes,
          { classId: 0, name: '年级', difference: data.grade.mean === null ? null : 0, ...data.grade },
        ];
        return (
          <>
            <Section
              title={`${data.homework!.title}（满分 ${data.homework!.full}）`}
              extra={
                <ExportButton
                  fileName={`${data.homework!.title}-班级均分及小题对比.xlsx`}
                  sheets={() => [
                    {
                      name: '班级均分',
                      header: [
                        '班级',
                        '参考人数',
                        '在册人数',
                        '平均分',
                        '与年级差',
                        '得分率',
                        ...data.questions.map((q) => `第${q.no}题得分率`),
                      ],
                      rows: rows.map((r) => [
                        r.name,
                        r.participants,
                        r.enrolled,
                        num(r.mean, 2),
                        num(r.difference, 2),
                        pct(r.scoreRate),
                        ...r.questionRates.map((v) => pct(v)),
                      ]),
                    },
                  ]}
                />
              }
            >
              <LazyTable
                size="small"
                pagination={false}
                rowKey="classId"
                dataSource={rows}
                columns={[
                  { title: '班级', dataIndex: 'name' },
                  {
                    title: <Explained label="参考/在册" help={DENOMINATORS.participation} />,
                    render: (_: unknown, r: Row) => `${r.participants}/${r.enrolled}`,
                  },
                  { title: '平均分', render: (_: unknown, r: Row) => num(r.mean) },
                  { title: '与年级差', render: (_: unknown, r: Row) => num(r.difference) },
                  {
                    title: <Explained label="得分率" help={DENOMINATORS.scoreRate} />,
                    render: (_: unknown, r: Row) => pct(r.scoreRate),
                  },
                ]}
              />
            </Section>
            <Section title={<Explained label="小题得分率对比" help={DENOMINATORS.scoreRate} />}>
              <EChart
                label="小题得分率对比图"
                option={{
                  tooltip: { trigger: 'axis' },
                  legend: {},
                  grid: { left: 40, right: 16, bottom: 30 },
                  xAxis: { type: 'category', data: data.questions.map((q) => `${q.no}`) },
                  yAxis: { type: 'value', max: 100, name: '得分率 %' },
                  series: rows.map((r) => ({
                    name: r.name,
                    type: r.classId === 0 ? 'line' : 'bar',
                    data: r.questionRates.map((v) => (v === null ? null : Math.round(v * 1000) / 10)),
                  })),
                }}
              />
              <LazyTable
                size="small"
                pagination={false}
                rowKey="classId"
                dataSource={rows}
                columns={[
                  { title: '班级', dataIndex: 'name', fixed: 'left', width: 100 },
                  ...data.questions.map((q, i) => ({
                    title: `${q.no}`,
                    width: 72,
                    // To 0.1 % as the Excel of this page and 数据分析 write it.
                    render: (_: unknown, r: Row) => pct(r.questionRates[i]),
                  })),
                ]}
              />
            </Section>
          </>
        );
      }}
    </QueryState>
  );
}
