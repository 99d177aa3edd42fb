/**
 * /assistant/details (作业详情): the student x question matrix of final marks; a cell opens the answer
 * (the labels read, and the scanned image where there is one).
 */
import { Modal, Typography } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../../shared/ui/lazy-table';
import { useState } from 'react';
import type { HomeworkAnalysis, HomeworkStudentRow } from '../../../shared/contract/analysis';
import { STUDENT_STATUS_LABELS } from '../../../shared/contract/marking';
import { useAnswerImage } from '../analysis-api';
import { labelText } from '../analysis-format';
import { ExportButton } from '../analysis-ui';
import styles from '../analysis.module.css';
import { HomeworkShell } from '../homework-shell';
import { homeworkSheets } from '../homework-tables';

export function DetailsPage() {
  return <HomeworkShell>{(data) => <Matrix data={data} />}</HomeworkShell>;
}

type Cell = { student: HomeworkStudentRow; index: number };

function Matrix({ data }: { data: HomeworkAnalysis }) {
  const [cell, setCell] = useState<Cell | null>(null);
  const color = (score: number | null, full: number) =>
    score === null
      ? undefined
      : score >= full
        ? 'rgba(82,196,26,.18)'
        : score <= 0
          ? 'rgba(246,70,93,.18)'
          : 'rgba(250,219,20,.22)';
  return (
    <>
      <div className={styles.sectionHead}>
        <Typography.Text type="tertiary">
          点击单元格查看作答；灰色为未参考的学生（缺考、未扫描或阅卷中，不计 0 分）
        </Typography.Text>
        <ExportButton
          fileName={`${data.homework.title}-作业详情.xlsx`}
          sheets={() => homeworkSheets(data).filter((s) => s.name === '学生成绩')}
        />
      </div>
      <LazyTable
        size="small"
        rowKey="studentId"
        dataSource={data.students}
        pagination={{ pageSize: 40 }}
        scroll={{ x: 240 + data.questions.length * 56 }}
        columns={[
          { title: '姓名', dataIndex: 'name', fixed: 'left', width: 90 },
          { title: '班级', dataIndex: 'className', width: 100 },
          {
            title: '总分',
            width: 70,
            render: (_: unknown, s: HomeworkStudentRow) =>
              s.absent ? <Typography.Text type="tertiary">{STUDENT_STATUS_LABELS[s.status]}</Typography.Text> : s.total,
          },
          ...data.questions.map((q, index) => ({
            title: `${q.no}`,
            width: 56,
            render: (_: unknown, s: HomeworkStudentRow) => {
              const score = s.scores[index] ?? null;
              return score === null ? (
                <span style={{ color: 'var(--semi-color-text-3)' }}>—</span>
              ) : (
                <button
                  type="button"
                  className={styles.matrixCell}
                  style={{ background: color(score, q.full), border: 0, width: '100%', padding: '2px 0' }}
                  aria-label={`${s.name} 第${q.no}题 ${score}分`}
                  onClick={() => setCell({ student: s, index })}
                >
                  {score}
                </button>
              );
            },
          })),
        ]}
      />
      <Modal
        visible={cell !== null}
        onCancel={() => setCell(null)}
        footer={null}
        title={cell ? `${cell.student.name} · 第${data.questions[cell.index]!.no}题` : ''}
      >
        {cell ? <AnswerDetail data={data} cell={cell} /> : null}
      </Modal>
    </>
  );
}

function AnswerDetail({ data, cell }: { data: HomeworkAnalysis; cell: Cell }) {
  const q = data.questions[cell.index]!;
  const answerId = cell.student.hasImage[cell.index] ? (cell.student.answerIds[cell.index] ?? null) : null;
  const image = useAnswerImage(answerId);
  const labels = cell.student.labels[cell.index];
  return (
    <div style={{ paddingBottom: 16 }}>
      <p>
        得分 {cell.student.scores[cell.index]} / {q.full}
      </p>
      {labels ? (
        <p>
          作答：{labels.map(labelText).join('') || '未作答'}；答案：{q.key.map(labelText).join('')}
        </p>
      ) : null}
      {image.data ? (
        <img src={image.data} alt="作答图片" style={{ maxWidth: '100%' }} />
      ) : answerId === null ? (
        <p>此题没有扫描图片</p>
      ) : null}
    </div>
  );
}
