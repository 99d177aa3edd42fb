/**
 * /assistant/commentary (作业讲评): made to be projected. One question per screen in big type: its
 * 得分率 and band, the option distribution (key marked, a distractor the top group prefers flagged
 * 答案可能有误) and typical wrong answers cut from the scans. Anonymous unless the teacher turns names on
 * for this showing. Arrow keys (← →) step between questions.
 */
import { Button, Switch, Tag, Toast, Typography } from '@douyinfe/semi-ui-19';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { z } from 'zod';
import type { HomeworkAnalysis } from '../../../shared/contract/analysis';
import { LazyRichText } from '../../../shared/ui/lazy-rich-text';
import { useAnswerImage } from '../analysis-api';
import { DENOMINATORS, labelText, pct } from '../analysis-format';
import { useAnalysisServices } from '../analysis-services';
import { Explained } from '../analysis-ui';
import styles from '../analysis.module.css';
import { HomeworkShell } from '../homework-shell';

export function CommentaryPage() {
  // Names for this showing only: the homework they were turned on for, forgotten on leaving the page or
  // choosing another homework. The server answers names only when asked and the school year allows them.
  const [namesFor, setNamesFor] = useState<number | null>(null);
  return (
    <HomeworkShell projection={(homeworkId) => (homeworkId !== null && homeworkId === namesFor ? 'named' : 'anonymous')}>
      {(data) => (
        <Commentary
          key={data.homework.id}
          data={data}
          names={namesFor === data.homework.id}
          onNames={(on) => setNamesFor(on ? data.homework.id : null)}
        />
      )}
    </HomeworkShell>
  );
}

const TYPICAL_WRONG = 6;

export function Commentary({
  data,
  names,
  onNames,
}: {
  data: HomeworkAnalysis;
  /** Whether the teacher turned names on (shown once the answer carries them). */
  names: boolean;
  onNames: (on: boolean) => void;
}) {
  const [index, setIndex] = useState(0);
  const count = data.questions.length;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowRight' || event.key === 'PageDown') setIndex((i) => Math.min(count - 1, i + 1));
      if (event.key === 'ArrowLeft' || event.key === 'PageUp') setIndex((i) => Math.max(0, i - 1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [count]);
  const q = data.questions[index];
  if (!q) return <Typography.Text>此作业没有题目</Typography.Text>;
  const wrong = data.students
    .map((s) => ({
      s,
      score: s.scores[index] ?? null,
      answerId: s.answerIds[index] ?? null,
      hasImage: s.hasImage[index] ?? false,
      labels: s.labels[index] ?? null,
    }))
    .filter((x) => x.score !== null && x.score < q.full)
    .sort((a, b) => Number(b.hasImage) - Number(a.hasImage))
    .slice(0, TYPICAL_WRONG);
  const maxCount = Math.max(1, ...(q.options?.options.map((o) => o.count) ?? [1]));
  return (
    <div className={styles.commentary}>
      <div className={`${styles.sectionHead} ${styles.noPrint}`}>
        <span>
          <Button onClick={() => setIndex((i) => Math.max(0, i - 1))} disabled={index === 0}>
            上一题 ←
          </Button>{' '}
          <Button onClick={() => setIndex((i) => Math.min(count - 1, i + 1))} disabled={index === count - 1}>
            → 下一题
          </Button>
        </span>
        <span>
          显示学生姓名{' '}
          <Switch
            checked={names && data.ranksAllowed}
            disabled={!data.ranksAllowed}
            onChange={onNames}
            aria-label="显示学生姓名"
          />
          {!data.ranksAllowed ? (
            <Typography.Text type="tertiary" style={{ marginLeft: 8 }}>
              本学年不公开学生姓名（可在排名设置中开启）
            </Typography.Text>
          ) : null}
        </span>
      </div>
      <h1>
        第 {q.no} 题{' '}
        <small style={{ fontSize: 20 }}>
          （{index + 1}/{count}，满分 {q.full}）
        </small>
      </h1>
      <div className={styles.commentaryStem}>
        <LazyRichText text={q.stem} />
      </div>
      {q.optionTexts.length ? (
        <ol type="A" style={{ fontSize: 24 }}>
          {q.optionTexts.map((text, i) => (
            <li key={i}>
              <LazyRichText text={text} />
            </li>
          ))}
        </ol>
      ) : null}
      <div style={{ display: 'flex', gap: 48, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <div>
          <Explained label="得分率" help={DENOMINATORS.scoreRate} />
          {/* To 0.1 % as on 数据分析 and in the report: the same figure, however big the type. */}
          <div className={styles.bigNumber}>{pct(q.scoreRate)}</div>
          <Tag size="large">{q.scoreRateBand}</Tag> <span>参考 {q.n} 人</span>
        </div>
        <div>
          满分 {q.fullCount} 人 · 零分 {q.zeroCount} 人
          {q.flags.map((f) => (
            <Tag key={f} color="red" size="large" style={{ marginLeft: 8 }}>
              {f}
            </Tag>
          ))}
        </div>
      </div>
      <Rehearse homeworkId={data.homework.id} questionNo={q.no} />
      {q.options ? (
        <div style={{ marginTop: 24, maxWidth: 720 }} aria-label="选项分布">
          {q.options.options.map((o) => (
            <div key={o.label} style={{ display: 'flex', alignItems: 'center', gap: 12, margin: '6px 0' }}>
              <strong style={{ width: 56, flexShrink: 0, whiteSpace: 'nowrap' }}>
                {labelText(o.label)}
                {o.isKey ? ' ✓' : ''}
              </strong>
              <div style={{ flex: 1, minWidth: 0 }}>
                <div
                  style={{
                    height: 28,
                    width: `${(o.count / maxCount) * 100}%`,
                    minWidth: 2,
                    background: o.isKey ? 'var(--semi-color-success)' : 'var(--semi-color-warning)',
                    borderRadius: 4,
                  }}
                />
              </div>
              <span style={{ flexShrink: 0, minWidth: 120, whiteSpace: 'nowrap' }}>
                {o.count} 人（{pct(q.n ? o.count / q.n : null, 0)}）
              </span>
            </div>
          ))}
          <div>未作答 {q.options.blankCount} 人</div>
        </div>
      ) : null}
      {wrong.length ? (
        <>
          <h2 style={{ fontSize: 24, marginTop: 24 }}>典型错误</h2>
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 12 }}>
            {wrong.map((x, i) => (
              <WrongAnswer
                key={x.s.studentId}
                who={names && x.s.name ? x.s.name : `学生 ${String.fromCharCode(65 + i)}`}
                score={x.score!}
                full={q.full}
                labels={x.labels}
                answerId={x.hasImage ? x.answerId : null}
              />
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}

function WrongAnswer({
  who,
  score,
  full,
  labels,
  answerId,
}: {
  who: string;
  score: number;
  full: number;
  labels: string[] | null;
  answerId: number | null;
}) {
  const image = useAnswerImage(answerId);
  return (
    <div style={{ border: '1px solid var(--semi-color-border)', borderRadius: 6, padding: 8 }}>
      <div>
        {who} · {score}/{full} 分{labels ? ` · 作答 ${labels.map(labelText).join('') || '未作答'}` : ''}
      </div>
      {image.data ? <img src={image.data} alt={`${who}的作答`} style={{ maxWidth: '100%' }} /> : null}
    </div>
  );
}

// The two answers of the rehearse contract read here, inline: importing that contract would bring all of it.
const causesSchema = z.array(
  z.object({ questionNo: z.number(), causes: z.array(z.object({ cause: z.string(), count: z.number() })) }),
);
const queueResultSchema = z.object({ added: z.number(), already: z.number() });

/** The question's wrong answers by error cause, and 加入错题重练 (the class's next re-practice set). */
function Rehearse({ homeworkId, questionNo }: { homeworkId: number; questionNo: number }) {
  const { http } = useAnalysisServices();
  const classId = new URLSearchParams(useLocation().search).get('classId') ?? undefined;
  const causes = useQuery({
    queryKey: ['rehearse', 'homework-causes', homeworkId, classId],
    queryFn: () => http.get(`/api/rehearse/homework/${homeworkId}/causes`, classId ? { classId } : undefined, causesSchema),
  });
  const add = () =>
    http
      .postJson(
        '/api/rehearse/queue',
        { homeworkId, questionNo, ...(classId ? { classId: Number(classId) } : {}) },
        queueResultSchema,
      )
      .then((r) => Toast.success(r.added > 0 ? '已加入错题重练，下次生成时纳入本题' : '本题已在下次错题重练中'));
  const mine = causes.data?.find((c) => c.questionNo === questionNo)?.causes ?? [];
  return (
    <div className={styles.noPrint} style={{ marginTop: 16, display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
      <Button onClick={() => void add()}>加入错题重练</Button>
      {mine.length ? <span>错因：{mine.map((c) => `${c.cause} ${c.count} 人`).join(' · ')}</span> : null}
    </div>
  );
}
