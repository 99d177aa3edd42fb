/**
 * /assistant/analysis (数据分析): the homework's numbers: summary, score bands, classes, questions, knowledge
 * points. 打印 prints it as a report on A4 (a title naming the homework, one chart per row, short tables
 * kept whole; analysis.module.css's print rules).
 */
import { IconPrint } from '@douyinfe/semi-icons';
import { Button, Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../../shared/ui/lazy-table';
import { useMemo } from 'react';
import type { HomeworkAnalysis } from '../../../shared/contract/analysis';
import { DENOMINATORS, pct } from '../analysis-format';
import { Explained, ExportButton, Section } from '../analysis-ui';
import styles from '../analysis.module.css';
import { EChart } from '../echart';
import { HomeworkShell } from '../homework-shell';
import { ClassTable, homeworkSheets, QuestionTable, SummaryCards } from '../homework-tables';

export function HomeworkAnalysisPage() {
  return <HomeworkShell>{(data) => <Body data={data} />}</HomeworkShell>;
}

function Body({ data }: { data: HomeworkAnalysis }) {
  const bands = useMemo(
    () => ({
      tooltip: {},
      grid: { left: 40, right: 16, bottom: 50 },
      xAxis: { type: 'category', data: data.summary.bands.map((b) => b.label), axisLabel: { rotate: 30 } },
      yAxis: { type: 'value', name: '人数' },
      series: [{ type: 'bar', data: data.summary.bands.map((b) => b.count), label: { show: true, position: 'top' } }],
    }),
    [data],
  );
  const rates = useMemo(
    () => ({
      tooltip: {},
      grid: { left: 40, right: 16, bottom: 30 },
      xAxis: { type: 'category', data: data.questions.map((q) => `${q.no}`) },
      yAxis: { type: 'value', max: 100, name: '得分率 %' },
      series: [
        { type: 'bar', data: data.questions.map((q) => (q.scoreRate === null ? null : Math.round(q.scoreRate * 1000) / 10)) },
      ],
    }),
    [data],
  );
  return (
    <>
      <div className={`${styles.sectionHead} ${styles.noPrint}`}>
        <span />
        <span style={{ display: 'flex', gap: 8 }}>
          <Button icon={<IconPrint />} onClick={() => window.print()}>
            打印
          </Button>
          <ExportButton fileName={`${data.homework.title}-数据分析.xlsx`} sheets={() => homeworkSheets(data)} />
        </span>
      </div>
      <div className={styles.printOnly}>
        <Typography.Title heading={4} style={{ textAlign: 'center', margin: 0 }}>
          {data.homework.title} 数据分析
        </Typography.Title>
        <Typography.Paragraph style={{ textAlign: 'center' }}>
          {data.homework.subjectName} · {data.homework.startDate} 至 {data.homework.dueDate} ·{' '}
          {data.classId ? data.classes.find((c) => c.id === data.classId)?.name : '全部班级'}
        </Typography.Paragraph>
      </div>
      <SummaryCards data={data} />
      <div className={styles.grid2}>
        <Section title="分数段分布（满分的 10%）" keepTogether>
          <EChart option={bands} label="分数段分布图" />
        </Section>
        <Section title={<Explained label="各题得分率" help={DENOMINATORS.scoreRate} />} keepTogether>
          <EChart option={rates} label="各题得分率图" />
        </Section>
      </div>
      <Section title="班级对比" keepTogether>
        <ClassTable data={data} />
      </Section>
      <Section title="小题分析">
        <QuestionTable data={data} />
      </Section>
      <Section title={<Explained label="知识点掌握度" help={DENOMINATORS.mastery} />} keepTogether>
        <LazyTable
          size="small"
          pagination={false}
          rowKey="id"
          dataSource={data.knowledgePoints}
          columns={[
            { title: '知识点', dataIndex: 'name' },
            { title: '题数', dataIndex: 'questionCount', width: 80 },
            {
              title: '掌握度',
              render: (_: unknown, p: HomeworkAnalysis['knowledgePoints'][number]) =>
                p.mastery === null ? `数据不足（${pct(p.rawRate)}）` : pct(p.mastery),
            },
          ]}
        />
      </Section>
    </>
  );
}
