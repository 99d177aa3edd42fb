/**
 * /assistant/papaerReport (报告, the spec's spelling): the homework report as a printable page (打印 / 另存为
 * PDF from the print dialog) and the same figures as Excel. Grade bands first; ranks only where allowed.
 */
import { IconDownload, IconPrint } from '@douyinfe/semi-icons';
import { Button, Typography } from '@douyinfe/semi-ui-19';
import type { HomeworkAnalysis } from '../../../shared/contract/analysis';
import { useState } from 'react';
import { useReportDocx } from '../analysis-api';
import { pct } from '../analysis-format';
import { ExportButton, Section } from '../analysis-ui';
import styles from '../analysis.module.css';
import { HomeworkShell } from '../homework-shell';
import { ClassTable, homeworkSheets, QuestionTable, SummaryCards } from '../homework-tables';

export function ReportPage() {
  return <HomeworkShell>{(data) => <Report data={data} />}</HomeworkShell>;
}

function Report({ data }: { data: HomeworkAnalysis }) {
  const downloadDocx = useReportDocx();
  const [downloading, setDownloading] = useState(false);
  const flagged = data.questions.filter((q) => q.flags.length > 0);
  const weak = data.knowledgePoints
    .filter((p) => p.mastery !== null)
    .sort((a, b) => a.mastery! - b.mastery!)
    .slice(0, 5);
  return (
    <div className={styles.report}>
      <div className={`${styles.sectionHead} ${styles.noPrint}`}>
        <span />
        <span style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <Button icon={<IconPrint />} onClick={() => window.print()}>
            打印 / 导出 PDF
          </Button>
          <Button
            icon={<IconDownload />}
            loading={downloading}
            onClick={() => {
              setDownloading(true);
              void downloadDocx(data.homework.id, data.homework.title, data.classId).finally(() => setDownloading(false));
            }}
          >
            下载 Word
          </Button>
          <ExportButton fileName={`${data.homework.title}-报告.xlsx`} sheets={() => homeworkSheets(data)} />
        </span>
      </div>
      <Typography.Title heading={3} style={{ textAlign: 'center' }}>
        {data.homework.title} 作业报告
      </Typography.Title>
      <Typography.Paragraph style={{ textAlign: 'center' }}>
        {data.homework.subjectName} · {data.homework.startDate} 至 {data.homework.dueDate} ·{' '}
        {data.classId ? data.classes.find((c) => c.id === data.classId)?.name : '全部班级'}
      </Typography.Paragraph>
      <SummaryCards data={data} />
      <Section title="等级分布" keepTogether>
        <p>{data.summary.gradeBands.map((b) => `${b.band} ${b.count} 人`).join('，')}（按总分占满分比例，不排名）</p>
      </Section>
      <Section title="班级对比" keepTogether>
        <ClassTable data={data} />
      </Section>
      <Section title="小题分析">
        <QuestionTable data={data} detailed={false} />
      </Section>
      <Section title="讲评建议" keepTogether>
        <ul>
          {flagged.map((q) => (
            <li key={q.no}>
              第 {q.no} 题：{q.flags.join('、')}（得分率 {pct(q.scoreRate)}）
            </li>
          ))}
          {weak.map((p) => (
            <li key={p.id}>
              薄弱知识点：{p.name}（掌握度 {pct(p.mastery)}，{p.questionCount} 题）
            </li>
          ))}
          {flagged.length + weak.length === 0 ? <li>各题表现正常</li> : null}
        </ul>
      </Section>
    </div>
  );
}
