/**
 * 任务分配 (owner only): for each hand-marked question, the teachers who mark it, double marking (双评)
 * and its tolerance (误差); saving sends every question at once (PUT assignments) and shows the
 * overview the server answers with.
 */
import { Button, InputNumber, Switch, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useState } from 'react';
import {
  DEFAULT_PARTIAL_CREDIT,
  type AssignmentsUpdate,
  type MarkingOverview,
  type MarkingQuestion,
} from '../../shared/contract/marking';
import { QUESTION_TYPE_LABELS } from '../../shared/contract/papers';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import { saveAssignments } from './marking-api';
import { useMarkingServices } from './marking-services';
import styles from './marking.module.css';
import { formatScore } from './score-input';

type Row = AssignmentsUpdate['questions'][number];

export const DOUBLE_MARKING_NEEDS_TWO = '双评至少需要两位阅卷老师';

function rowsOf(questions: MarkingQuestion[]): Row[] {
  return questions
    .filter((q) => q.manual)
    .map((q) => ({
      questionNo: q.questionNo,
      // `assigned` is who marks it. Nobody assigned stays nobody (saving does not turn the owner into an
      // assignment): the owner marks, and pages scanned 按学科分配 go to the class's subject teacher.
      // Older answers only had the markers (who has marked).
      userIds: q.assigned === undefined ? q.markers.map((m) => m.userId) : q.assigned,
      doubleMarking: q.doubleMarking,
      tolerance: q.tolerance,
    }));
}

export function rowProblem(row: Row): string | null {
  return row.doubleMarking && row.userIds.length < 2 ? DOUBLE_MARKING_NEEDS_TWO : null;
}

export function AssignmentsTab({ overview, onSaved }: { overview: MarkingOverview; onSaved: (next: MarkingOverview) => void }) {
  const { http } = useMarkingServices();
  const [rows, setRows] = useState<Row[]>(() => rowsOf(overview.questions));
  const hasMultiple = overview.questions.some((q) => q.type === 'multiple');
  const [partialCredit, setPartialCredit] = useState(overview.partialCredit ?? DEFAULT_PARTIAL_CREDIT);
  const [saving, setSaving] = useState(false);
  const [tried, setTried] = useState(false);
  const questions = new Map(overview.questions.map((q) => [q.questionNo, q]));
  const teacherOptions = overview.teachers.map((t) => ({ value: t.userId, label: t.name }));

  const update = (questionNo: number, change: Partial<Row>) =>
    setRows((current) => current.map((row) => (row.questionNo === questionNo ? { ...row, ...change } : row)));

  const applyFirstToAll = () => {
    const first = rows[0];
    if (first) setRows((current) => current.map((row) => ({ ...row, userIds: first.userIds })));
  };

  const save = async () => {
    setTried(true);
    if (rows.some((row) => rowProblem(row))) return;
    setSaving(true);
    try {
      const next = await saveAssignments(http, overview.homeworkId, {
        questions: rows,
        ...(hasMultiple ? { partialCredit } : {}),
      });
      Toast.success('阅卷任务分配已保存');
      onSaved(next);
    } catch {
      // Shown by the HTTP client; the choices stay for another try.
    } finally {
      setSaving(false);
    }
  };

  if (rows.length === 0) {
    return <p className={styles.sub}>本次作业没有需要人工阅卷的题目，无需分配。</p>;
  }

  return (
    <>
      <div className={styles.toolbar}>
        <Typography.Text type="tertiary">
          为每道主观题选择阅卷老师；不选则由您阅卷，扫描时选了按学科分配的答卷由该班任课老师阅卷。双评须为该题指定至少两位阅卷老师：每份答卷由两位老师各评一次，两次分差超过误差时由第三位老师再评，仍超出时交由您仲裁。
        </Typography.Text>
      </div>
      <ul className={styles.assignRows} aria-label="任务分配">
        {rows.map((row) => {
          const question = questions.get(row.questionNo);
          const problem = tried ? rowProblem(row) : null;
          return (
            <li key={row.questionNo} className={styles.assignRow} aria-label={`第${row.questionNo}题分配`}>
              <span>
                <strong>{`第 ${row.questionNo} 题`}</strong>{' '}
                {question ? (
                  <Tag size="small" color="blue">
                    {QUESTION_TYPE_LABELS[question.type]}
                  </Tag>
                ) : null}{' '}
                {question ? <span className={styles.sub}>{`${formatScore(question.score)} 分`}</span> : null}
              </span>
              <LabelledSelect
                label={`第${row.questionNo}题阅卷老师`}
                multiple
                filter
                maxTagCount={4}
                placeholder="未分配：由您或任课老师阅卷"
                emptyContent="学校暂无可分配的老师"
                optionList={teacherOptions}
                value={row.userIds}
                onChange={(value) => update(row.questionNo, { userIds: (value as number[] | undefined) ?? [] })}
                style={{ width: '100%' }}
              />
              <label className={styles.assignField}>
                <Switch
                  aria-label={`第${row.questionNo}题双评`}
                  checked={row.doubleMarking}
                  onChange={(checked) => update(row.questionNo, { doubleMarking: checked })}
                />
                双评
              </label>
              <label className={styles.assignField}>
                误差
                <InputNumber
                  aria-label={`第${row.questionNo}题误差`}
                  min={0}
                  max={question?.score ?? 1000}
                  step={0.5}
                  precision={1}
                  disabled={!row.doubleMarking}
                  value={row.tolerance}
                  onNumberChange={(value) =>
                    update(row.questionNo, { tolerance: Number.isFinite(value) ? Math.max(0, value) : 0 })
                  }
                  suffix="分"
                  style={{ width: 130 }}
                />
              </label>
              {problem ? (
                <span className={styles.fieldError} role="alert">
                  {problem}
                </span>
              ) : row.doubleMarking && row.userIds.length < 2 ? (
                <span className={styles.fieldHint}>双评须选两位及以上阅卷老师</span>
              ) : null}
            </li>
          );
        })}
      </ul>
      <div className={styles.toolbar}>
        {hasMultiple ? (
          <label className={styles.assignField}>
            多选题少选得分
            <InputNumber
              aria-label="多选题少选得分比例"
              min={0}
              max={100}
              step={10}
              precision={0}
              suffix="%"
              value={Math.round(partialCredit * 100)}
              onNumberChange={(value) => setPartialCredit(Number.isFinite(value) ? Math.min(100, Math.max(0, value)) / 100 : 0)}
              style={{ width: 120 }}
            />
            <span className={styles.creditHint}>全对得满分，少选按此比例得分，错选不得分</span>
          </label>
        ) : null}
        {rows.length > 1 ? (
          <Button onClick={applyFirstToAll}>{`将第 ${rows[0]?.questionNo} 题的老师应用到全部题目`}</Button>
        ) : null}
        <Button theme="solid" className={styles.toolbarEnd} loading={saving} onClick={() => void save()}>
          保存分配
        </Button>
      </div>
    </>
  );
}
