/**
 * 仲裁 (owner only): answers whose marks differ by more than the tolerance even after a third marking,
 * grouped by question with the marks given so far; arbitrating happens on /write in arbitration mode.
 */
import { Button, Empty, Spin, Tag } from '@douyinfe/semi-ui-19';
import { useNavigate } from 'react-router-dom';
import type { MarkingTask } from '../../shared/contract/marking';
import { fetchArbitration } from './marking-api';
import { writePath } from './marking-tasks-tab';
import styles from './marking.module.css';
import { formatScore } from './score-input';
import { useRemote } from '../../shared/ui/use-remote';
import { useMarkingServices } from './marking-services';
import { Illustration } from '../../shared/ui/illustration';

export const ROUND_NAMES = ['一评', '二评', '三评'] as const;

/** "一评 6 分 · 二评 9 分" for the marks an answer has had. */
export function describeOtherScores(scores: readonly number[] | undefined): string {
  if (!scores || scores.length === 0) return '暂无评分';
  return scores.map((score, i) => `${ROUND_NAMES[i] ?? `第${i + 1}评`} ${formatScore(score)} 分`).join(' · ');
}

export function ArbitrationTab({ homeworkId, version }: { homeworkId: number; version: string }) {
  const { http } = useMarkingServices();
  const navigate = useNavigate();
  const tasks = useRemote(`arbitration:${homeworkId}:${version}`, () => fetchArbitration(http, homeworkId));
  const byQuestion = new Map<number, MarkingTask[]>();
  for (const task of tasks.data ?? []) byQuestion.set(task.questionNo, [...(byQuestion.get(task.questionNo) ?? []), task]);

  if (tasks.loading && !tasks.data) return <Spin />;
  if (byQuestion.size === 0)
    return (
      <Empty
        className={styles.empty}
        image={<Illustration name="Success" style={{ width: 120, height: 120 }} />}
        title="没有需要仲裁的答卷"
        description="双评分差超过误差且第三评仍无法确定时，答卷会交由您在这里仲裁"
      />
    );

  return (
    <ul className={styles.pickerList} aria-label="待仲裁">
      {[...byQuestion].map(([questionNo, list]) => (
        <li key={questionNo} className={styles.pickerItem}>
          <div>
            <strong>{`第 ${questionNo} 题`}</strong> <Tag color="orange" size="small">{`待仲裁 ${list.length} 份`}</Tag>
            <ul className={styles.markers} style={{ marginTop: 6 }}>
              {list.slice(0, 6).map((task) => (
                <li key={task.taskId}>
                  <Tag size="small" color="white">
                    {describeOtherScores(task.otherScores)}
                  </Tag>
                </li>
              ))}
              {list.length > 6 ? <li className={styles.sub}>{`等 ${list.length} 份`}</li> : null}
            </ul>
          </div>
          <Button theme="solid" onClick={() => navigate(writePath(homeworkId, questionNo, /* arbitration */ true))}>
            {`仲裁第 ${questionNo} 题`}
          </Button>
        </li>
      ))}
    </ul>
  );
}
