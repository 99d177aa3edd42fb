/**
 * What the lists of papers share (我的试卷 and 校本资料): the line that sums a paper up and the table
 * columns for its title, subject, school year and actions. Each list adds its own columns between them;
 * the search box over names is library-parts.tsx's NameSearch.
 */
import { Typography } from '@douyinfe/semi-ui-19';
import type { ColumnProps } from '@douyinfe/semi-ui-19/lib/es/table';
import type { ReactNode } from 'react';
import type { PaperSummary } from '../../shared/contract/papers';
import { formatScore } from './basket.store';
import styles from './pages/paperlist-page.module.css';

type PaperColumn = ColumnProps<PaperSummary>;

/** 「12 题 · 满分 100 分 · A4」 */
export const paperMeta = (paper: PaperSummary) =>
  `${paper.questionCount} 题 · 满分 ${formatScore(paper.totalScore)} 分 · ${paper.paperSize}`;

/** 试卷名称: the title in bold, an optional tag after it, and the paper's summary line below. */
export function paperTitleColumn(meta: (paper: PaperSummary) => string, tag?: (paper: PaperSummary) => ReactNode): PaperColumn {
  return {
    title: '试卷名称',
    dataIndex: 'title',
    render: (_: unknown, paper: PaperSummary) => (
      <div>
        <Typography.Text strong>{paper.title}</Typography.Text>
        {tag ? tag(paper) : null}
        <div className={styles.sub}>{meta(paper)}</div>
      </div>
    ),
  };
}

export const paperSubjectColumn: PaperColumn = {
  title: '学科',
  dataIndex: 'subject',
  width: 70,
  render: (_: unknown, paper: PaperSummary) => paper.subject.name,
};

export const paperSchoolYearColumn: PaperColumn = {
  title: '学年',
  dataIndex: 'schoolYear',
  width: 130,
  render: (_: unknown, paper: PaperSummary) => paper.schoolYear.name,
};

export function paperActionsColumn(width: number, actions: (paper: PaperSummary) => ReactNode): PaperColumn {
  return { title: '操作', dataIndex: 'actions', width, render: (_: unknown, paper: PaperSummary) => actions(paper) };
}
