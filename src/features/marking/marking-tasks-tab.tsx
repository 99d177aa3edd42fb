/**
 * 阅卷任务: one card per hand-marked question (type, full marks, progress, who marks it and how much,
 * answers waiting for arbitration and problem papers) with the way into /write; objective questions
 * are summarised, as the server scores them.
 */
import { Button, Empty, Tag, Typography } from '@douyinfe/semi-ui-19';
import { useNavigate } from 'react-router-dom';
import type { MarkingOverview, MarkingQuestion } from '../../shared/contract/marking';
import { QUESTION_TYPE_LABELS } from '../../shared/contract/papers';
import { useMarkingServices } from './marking-services';
import styles from './marking.module.css';
import { formatScore } from './score-input';
import { Illustration } from '../../shared/ui/illustration';
import { ProgressBar } from '../../shared/ui/progress-bar';

export function writePath(homeworkId: number, questionNo: number, arbitration = false): string {
  return `/write?homeworkId=${homeworkId}&questionNo=${questionNo}${arbitration ? '&mode=arbitration' : ''}`;
}

/** "1–12、15、17–18" for question numbers in order. */
export function numberRanges(numbers: number[]): string {
  const parts: string[] = [];
  let start = numbers[0];
  let end = start;
  for (const n of [...numbers.slice(1), Number.NaN]) {
    if (start === undefined || end === undefined) break;
    if (n === end + 1) {
      end = n;
      continue;
    }
    parts.push(start === end ? String(start) : `${start}–${end}`);
    start = n;
    end = n;
  }
  return parts.join('、');
}

export type MarkerCount = { userId: number; name: string; marked: number; assigned: boolean };

/** Who marks the question: the assigned teachers (0 marked so far included), then anyone else who marked it. */
export function markersOf(question: MarkingQuestion, teachers: MarkingOverview['teachers']): MarkerCount[] {
  const assigned = question.assigned ?? [];
  const marked = new Map(question.markers.map((m) => [m.userId, m]));
  const nameOf = (userId: number) =>
    marked.get(userId)?.name ?? teachers.find((t) => t.userId === userId)?.name ?? `老师${userId}`;
  return [
    ...assigned.map((userId) => ({ userId, name: nameOf(userId), marked: marked.get(userId)?.marked ?? 0, assigned: true })),
    ...question.markers.filter((m) => !assigned.includes(m.userId)).map((m) => ({ ...m, assigned: false })),
  ];
}

export function MarkingTasksTab({ overview }: { overview: MarkingOverview }) {
  const manual = overview.questions.filter((q) => q.manual);
  const objective = overview.questions.filter((q) => !q.manual);
  return (
    <>
      {manual.length === 0 ? (
        <Empty
          className={styles.empty}
          image={<Illustration name="NoContent" style={{ width: 120, height: 120 }} />}
          title="本次作业没有需要人工阅卷的题目"
          description="客观题由系统按答案自动评分，可在「成绩」中查看"
        />
      ) : (
        <ul className={styles.taskGrid} aria-label="阅卷任务">
          {manual.map((question) => (
            <TaskCard
              key={question.questionNo}
              homeworkId={overview.homeworkId}
              isOwner={overview.isOwner}
              question={question}
              markers={markersOf(question, overview.teachers)}
            />
          ))}
        </ul>
      )}
      {objective.length > 0 ? (
        <p className={styles.objective}>
          {`客观题 ${objective.length} 道（第 ${numberRanges(objective.map((q) => q.questionNo))} 题）由系统按答案自动评分，已评 ${Math.min(
            ...objective.map((q) => q.done),
          )} 份。`}
        </p>
      ) : null}
    </>
  );
}

type CardProps = { homeworkId: number; isOwner: boolean; question: MarkingQuestion; markers: MarkerCount[] };

/**
 * Whether the server will hand me answers of the question: its assigned teachers mark it; the owner
 * marks an unassigned question and may take third markings of any; a class's subject teacher marks the
 * answers of that class scanned 按学科分配 (`bySubject`). Unknown assignment (an older
 * answer without `assigned`): let the server decide.
 */
export function canMark(question: MarkingQuestion, isOwner: boolean, userId: number | null): boolean {
  if (isOwner || question.assigned === undefined) return true;
  return userId !== null && (question.assigned.includes(userId) || (question.bySubject ?? []).includes(userId));
}

function TaskCard({ homeworkId, isOwner, question, markers }: CardProps) {
  const navigate = useNavigate();
  const { userId } = useMarkingServices();
  const { questionNo, done, total } = question;
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  const finished = total > 0 && done >= total;
  const mine = canMark(question, isOwner, userId);
  return (
    <li className={styles.taskCard} aria-label={`第${questionNo}题`}>
      <div className={styles.taskHead}>
        <span>
          <span className={styles.taskNo}>{`第 ${questionNo} 题`}</span>{' '}
          <Tag size="small" color="blue">
            {QUESTION_TYPE_LABELS[question.type]}
          </Tag>{' '}
          <Typography.Text type="tertiary" size="small">{`满分 ${formatScore(question.score)} 分`}</Typography.Text>
        </span>
        {finished ? (
          <Tag color="green" size="small">
            已阅完
          </Tag>
        ) : null}
      </div>
      <div>
        <ProgressBar
          percent={percent}
          aria-label={`第${questionNo}题阅卷进度`}
          aria-valuetext={`${done}/${total}`}
          stroke={finished ? 'var(--semi-color-success)' : undefined}
        />
        <span className={styles.sub}>{total === 0 ? '暂无答卷，等待扫描识别' : `已阅 ${done} / ${total} 份`}</span>
        {mine ? null : <span className={styles.sub}>{' · 未分配给您'}</span>}
      </div>
      <div>
        <span className={styles.sub}>阅卷老师</span>
        {markers.length === 0 ? (
          <div className={styles.sub}>未分配，由作业布置者阅卷</div>
        ) : (
          <ul className={styles.markers}>
            {markers.map((marker) => (
              <li key={marker.userId}>
                <Tag size="small" color={marker.userId === userId ? 'light-blue' : 'white'}>
                  {`${marker.name}${marker.userId === userId ? '（我）' : ''} ${marker.marked} 份`}
                </Tag>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className={styles.taskFoot}>
        <span>
          {question.doubleMarking ? (
            <Tag size="small" color="violet">{`双评 · 误差 ${formatScore(question.tolerance)} 分`}</Tag>
          ) : null}{' '}
          {question.arbitration > 0 ? <Tag size="small" color="orange">{`待仲裁 ${question.arbitration}`}</Tag> : null}{' '}
          {question.problems > 0 ? <Tag size="small" color="red">{`问题卷 ${question.problems}`}</Tag> : null}
        </span>
        <Button
          theme="solid"
          className={styles.taskAction}
          disabled={total === 0 || !mine}
          title={mine ? undefined : '这道题没有分配给您'}
          aria-label={`开始阅卷：第${questionNo}题`}
          onClick={() => navigate(writePath(homeworkId, questionNo))}
        >
          开始阅卷
        </Button>
      </div>
    </li>
  );
}
