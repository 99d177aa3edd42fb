/**
 * Who of the homework's students is still missing (未扫描, by name) and who is absent (缺考): a teacher
 * marks a missing student absent, or undoes it; the owner ends marking (结束阅卷: the homework is 已完成
 * whatever is missing) or reopens it. Each change answers the new overview, which replaces the page's.
 */
import { Button, Modal, Popconfirm, Tag, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import type { HomeworkStudent, MarkingOverview } from '../../shared/contract/marking';
import { saveAbsence, saveClosure } from './marking-api';
import { useMarkingServices } from './marking-services';
import styles from './marking.module.css';

/** Names shown before 展开全部. */
export const STUDENTS_SHOWN = 24;

type Props = { overview: MarkingOverview; onChanged: (overview: MarkingOverview) => void };

export function StudentsPanel({ overview, onChanged }: Props) {
  const { http } = useMarkingServices();
  const [busy, setBusy] = useState<string | null>(null);
  const [expanded, setExpanded] = useState(false);
  const [confirming, setConfirming] = useState<HomeworkStudent | null>(null);
  const students = overview.students;
  if (!students || students.total === 0) return null;
  const { unscanned, absent, scanned, total } = students;
  const shown = expanded ? unscanned : unscanned.slice(0, STUDENTS_SHOWN);

  const run = async (key: string, call: () => Promise<MarkingOverview>) => {
    setBusy(key);
    try {
      onChanged(await call());
    } catch {
      // The client has shown the error.
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className={styles.students} aria-label="学生扫描情况">
      <div className={styles.studentsHead}>
        <Typography.Text strong>{`学生：已扫描 ${scanned} / ${total} 人`}</Typography.Text>
        {absent.length > 0 ? <Typography.Text type="tertiary">{`缺考 ${absent.length} 人`}</Typography.Text> : null}
        {unscanned.length > 0 ? (
          <Typography.Text type="warning">{`还有 ${unscanned.length} 名学生未扫描`}</Typography.Text>
        ) : (
          <Typography.Text type="success">全部学生已扫描或记为缺考</Typography.Text>
        )}
        {overview.isOwner ? (
          <span className={styles.toolbarEnd}>
            {overview.closed ? (
              <Button
                size="small"
                loading={busy === 'close'}
                onClick={() => void run('close', () => saveClosure(http, overview.homeworkId, false))}
              >
                重新开放阅卷
              </Button>
            ) : (
              <Popconfirm
                title="结束阅卷？"
                content="作业将记为已完成；未扫描的学生没有成绩，不计入平均分"
                okText="结束阅卷"
                cancelText="取消"
                onConfirm={() => void run('close', () => saveClosure(http, overview.homeworkId, true))}
              >
                <Button size="small" loading={busy === 'close'}>
                  结束阅卷
                </Button>
              </Popconfirm>
            )}
          </span>
        ) : null}
      </div>
      {unscanned.length > 0 ? (
        <ul className={styles.studentList} aria-label="未扫描的学生">
          {shown.map((student) => (
            <li key={student.studentId}>
              <Button
                size="small"
                theme="borderless"
                type="tertiary"
                loading={busy === `a${student.studentId}`}
                aria-label={`${student.name}（${student.code}）未扫描，记为缺考`}
                title={`${student.code} · 点击记为缺考`}
                onClick={() => setConfirming(student)}
              >
                {student.name}
              </Button>
            </li>
          ))}
          {unscanned.length > STUDENTS_SHOWN ? (
            <li>
              <Button size="small" theme="borderless" onClick={() => setExpanded((value) => !value)}>
                {expanded ? '收起' : `展开全部 ${unscanned.length} 人`}
              </Button>
            </li>
          ) : null}
        </ul>
      ) : null}
      {absent.length > 0 ? (
        <ul className={styles.studentList} aria-label="缺考的学生">
          {absent.map((student) => (
            <li key={student.studentId}>
              <Tag color="red" size="small">{`${student.name} 缺考`}</Tag>
              <Button
                size="small"
                theme="borderless"
                loading={busy === `u${student.studentId}`}
                aria-label={`撤销 ${student.name} 的缺考`}
                onClick={() =>
                  void run(`u${student.studentId}`, () => saveAbsence(http, overview.homeworkId, student.studentId, false))
                }
              >
                撤销
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <Modal
        title={confirming ? `将 ${confirming.name} 记为缺考？` : ''}
        visible={confirming !== null}
        okText="记为缺考"
        cancelText="取消"
        onCancel={() => setConfirming(null)}
        onOk={() => {
          const student = confirming;
          setConfirming(null);
          if (student) {
            void run(`a${student.studentId}`, () => saveAbsence(http, overview.homeworkId, student.studentId, true));
          }
        }}
      >
        缺考的学生没有成绩，不计入平均分；可随时撤销。
      </Modal>
    </section>
  );
}
