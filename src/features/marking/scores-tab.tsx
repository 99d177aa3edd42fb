/**
 * 成绩: the homework's score table (one row per student, a column per question, the total and the
 * student's status: 未扫描 and 缺考 have empty cells and no total, and stay out of the average), filterable by class and name, and exported as Excel
 * ("<title>-成绩表.xlsx"). 数据分析 opens the homework's analysis (/assistant/analysis).
 */
import { IconDownload, IconSearch } from '@douyinfe/semi-icons';
import { Button, Input, Tag, Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../shared/ui/lazy-table';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { hasScores, STUDENT_STATUS_LABELS, type StudentScore, type StudentStatus } from '../../shared/contract/marking';
import { QUESTION_TYPE_LABELS, type QuestionType } from '../../shared/contract/papers';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../../shared/ui/use-media-query';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import { downloadScoresXlsx, fetchScores } from './marking-api';
import { useMarkingServices } from './marking-services';
import styles from './marking.module.css';
import { formatScore } from './score-input';
import { useRemote } from '../../shared/ui/use-remote';

const STATUS_COLORS: Record<StudentStatus, 'green' | 'orange' | 'grey' | 'red'> = {
  complete: 'green',
  marking: 'orange',
  unscanned: 'grey',
  absent: 'red',
};

export function ScoresTab({ homeworkId, title, version }: { homeworkId: number; title: string; version: number | string }) {
  const { http } = useMarkingServices();
  const navigate = useNavigate();
  const table = useRemote(`scores:${homeworkId}:${version}`, () => fetchScores(http, homeworkId));
  const [className, setClassName] = useState<string | undefined>();
  const [keyword, setKeyword] = useState('');
  const [exporting, setExporting] = useState(false);
  const small = useMediaQuery(SMALL_SCREEN_QUERY);

  const students = table.data?.students ?? [];
  const classNames = [...new Set(students.map((s) => s.className))];
  const shown = students.filter(
    (s) => (!className || s.className === className) && (!keyword || s.name.includes(keyword) || s.code.includes(keyword)),
  );
  const complete = students.filter((s) => s.status === 'complete').length;
  const absent = students.filter((s) => s.status === 'absent').length;
  const unscanned = students.filter((s) => s.status === 'unscanned').length;
  const marking = students.filter((s) => s.status === 'marking').length;
  // As in the analysis pages, a student counts once 已阅完: 未扫描 and 缺考 are not 0, and the total of one
  // still 阅卷中 lacks the questions not marked yet, so all three stay out of the average.
  const totals = students.flatMap((s) => (s.status === 'complete' && s.total !== null ? [s.total] : []));
  const average = totals.length === 0 ? null : totals.reduce((sum, t) => sum + t, 0) / totals.length;

  const exportExcel = async () => {
    setExporting(true);
    try {
      await downloadScoresXlsx(http, homeworkId, table.data?.title ?? title);
    } catch {
      // The client has shown 题量过大，下载失败.
    } finally {
      setExporting(false);
    }
  };

  // On a phone only the name stays put while the rest scrolls; the total and status come first there.
  const pinned = small ? undefined : ('left' as const);
  const pinnedEnd = small ? undefined : ('right' as const);
  const nameColumn = { title: '姓名', dataIndex: 'name', width: 90, fixed: 'left' as const };
  const questionColumns = (table.data?.questions ?? []).map((q) => ({
    title: (
      <span
        className={styles.scoreHead}
        title={`${QUESTION_TYPE_LABELS[q.type as QuestionType] ?? q.type} · 满分 ${formatScore(q.score)} 分`}
      >
        <span>{`第${q.questionNo}题`}</span>
        <span className={styles.sub}>{`${formatScore(q.score)}分`}</span>
      </span>
    ),
    dataIndex: `q${q.questionNo}`,
    width: 72,
    align: 'center' as const,
    render: (_: unknown, row: StudentScore) => {
      if (!hasScores(row.status)) return null;
      const score = row.scores[String(q.questionNo)];
      return score === null || score === undefined ? <span className={styles.sub}>—</span> : formatScore(score);
    },
  }));
  const endColumns = [
    {
      title: '总分',
      dataIndex: 'total',
      width: 80,
      align: 'center' as const,
      fixed: pinnedEnd,
      // A total is shown only once every question is marked (已阅完): a 阅卷中 student's partial sum is not a 总分
      // (the Excel leaves the cell empty too); the marks given so far stay in the question columns.
      render: (_: unknown, row: StudentScore) =>
        row.total === null || row.status !== 'complete' ? (
          <span className={styles.sub}>{STUDENT_STATUS_LABELS[row.status]}</span>
        ) : (
          <strong>{formatScore(row.total)}</strong>
        ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      fixed: pinnedEnd,
      render: (_: unknown, row: StudentScore) => (
        <Tag color={STATUS_COLORS[row.status]} size="small">
          {STUDENT_STATUS_LABELS[row.status]}
        </Tag>
      ),
    },
  ];
  const codeColumn = { title: '学号', dataIndex: 'code', width: 130, fixed: pinned };
  const classColumn = { title: '班级', dataIndex: 'className', width: 120 };
  const columns = small
    ? [nameColumn, ...endColumns, codeColumn, classColumn, ...questionColumns]
    : [codeColumn, nameColumn, classColumn, ...questionColumns, ...endColumns];

  return (
    <>
      <div className={styles.toolbar}>
        <LabelledSelect
          label="班级"
          placeholder="全部班级"
          showClear
          value={className}
          optionList={classNames.map((name) => ({ value: name, label: name }))}
          onChange={(value) => setClassName((value as string | undefined) ?? undefined)}
          style={{ width: 150 }}
        />
        <Input
          aria-label="搜索学生"
          prefix={<IconSearch />}
          placeholder="姓名或学号"
          showClear
          value={keyword}
          onChange={(value) => setKeyword(value.trim())}
          style={{ width: 200 }}
        />
        <Typography.Text type="tertiary">{`共 ${students.length} 人，已阅完 ${complete} 人${marking > 0 ? `，阅卷中 ${marking} 人` : ''}${unscanned > 0 ? `，未扫描 ${unscanned} 人` : ''}${absent > 0 ? `，缺考 ${absent} 人` : ''}${average === null ? '' : `，已阅完的平均分 ${formatScore(Math.round(average * 10) / 10)}`}`}</Typography.Text>
        <Button className={styles.toolbarEnd} onClick={() => void navigate(`/assistant/analysis?homeworkId=${homeworkId}`)}>
          数据分析
        </Button>
        <Button icon={<IconDownload />} loading={exporting} disabled={students.length === 0} onClick={() => void exportExcel()}>
          导出 Excel
        </Button>
      </div>
      <section aria-label="成绩表">
        <LazyTable
          rowKey="studentId"
          size="small"
          columns={columns}
          dataSource={shown}
          loading={table.loading}
          pagination={shown.length > 50 ? { pageSize: 50 } : false}
          scroll={{ x: 510 + questionColumns.length * 72 }}
          empty={table.loading ? '' : '暂无成绩：答题卡识别后会出现在这里'}
        />
      </section>
    </>
  );
}
