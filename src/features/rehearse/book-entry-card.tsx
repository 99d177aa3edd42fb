/**
 * One question of a student's wrong-question book: the stem and options, the student's answer (chosen
 * options, or the answer image cut from the scan) beside the key, the analysis, where and how often it
 * went wrong, its mastery and its error cause (editable from the school's list, not when printing).
 */
import { Tag, Toast } from '@douyinfe/semi-ui-19';
import { LabelledSelect } from '../../shared/ui/labelled-select';
import { MASTERY_LABELS, type BookEntry } from '../../shared/contract/rehearse';
import { useAnswerImage, useSetCause } from './rehearse-api';
import { useRehearseServices } from './rehearse-services';
import styles from './rehearse.module.css';

const LETTERS = 'ABCDEFGH';
const labelText = (label: string) => (label === 'T' ? '对' : label === 'F' ? '错' : label);
const MASTERY_COLORS = { pending: 'red', redo1: 'orange', redo2: 'amber', mastered: 'green' } as const;
const CHOICE = new Set(['single', 'multiple', 'judge']);

function AnswerImage({ answerId }: { answerId: number }) {
  const image = useAnswerImage(answerId);
  if (image.isLoading) return <span className={styles.muted}>图片加载中…</span>;
  if (!image.data) return <span className={styles.muted}>答题图片无法读取</span>;
  return <img className={styles.answerImage} src={image.data} alt="学生作答（扫描截图）" />;
}

export function BookEntryCard({
  entry,
  index,
  causes,
  printing = false,
}: {
  entry: BookEntry;
  index: number;
  causes: string[];
  printing?: boolean;
}) {
  const { RichText } = useRehearseServices();
  const setCause = useSetCause();
  const given = entry.labels && entry.labels.length > 0 ? entry.labels.map(labelText).join('、') : null;
  const causeOptions = [...new Set([...causes, ...(entry.errorCause ? [entry.errorCause] : [])])];
  return (
    <article className={styles.entry} aria-label={`错题 ${index}`}>
      <div className={styles.entryHead}>
        <strong>{index}.</strong>
        <Tag color={MASTERY_COLORS[entry.mastery]}>{MASTERY_LABELS[entry.mastery]}</Tag>
        <span className={styles.muted}>
          错 {entry.timesWrong} 次 · 最近：{entry.homework.name} 第 {entry.questionNo} 题（{entry.lastWrongOn}） · 得分{' '}
          {entry.score}/{entry.fullScore}
          {entry.redoCount > 0 ? ` · 已重练 ${entry.redoCount} 次` : ''}
        </span>
        {entry.knowledgePoints.length > 0 ? (
          <span className={styles.muted}>知识点：{entry.knowledgePoints.join('、')}</span>
        ) : null}
      </div>
      <RichText text={entry.stem} />
      {entry.options.length > 0 ? (
        <ol className={styles.options}>
          {entry.options.map((option, i) => (
            <li key={i}>
              <span className={styles.optionLetter}>{LETTERS[i]}.</span> <RichText text={option} />
            </li>
          ))}
        </ol>
      ) : null}
      <div className={styles.answerRow}>
        <div className={styles.answerBox}>
          <div className={styles.answerLabel}>学生作答</div>
          {given ? (
            <span className={styles.wrongAnswer}>{given}</span>
          ) : entry.hasImage && entry.answerId !== null ? (
            <AnswerImage answerId={entry.answerId} />
          ) : (
            <span className={styles.muted}>{CHOICE.has(entry.type) ? '未作答' : '无答题图片'}</span>
          )}
        </div>
        <div className={styles.answerBox}>
          <div className={styles.answerLabel}>正确答案</div>
          <RichText text={entry.key.map(labelText).join(CHOICE.has(entry.type) ? '、' : '；')} />
        </div>
      </div>
      {entry.analysis ? (
        <div className={styles.analysis}>
          <div className={styles.answerLabel}>解析</div>
          <RichText text={entry.analysis} />
        </div>
      ) : null}
      <div className={styles.causeRow}>
        <span className={styles.answerLabel}>错因</span>
        {printing ? (
          <span>{entry.errorCause ?? '未标注'}</span>
        ) : (
          <LabelledSelect
            size="small"
            label={`错题 ${index} 的错因`}
            placeholder="未标注"
            value={entry.errorCause ?? undefined}
            showClear
            optionList={causeOptions.map((c) => ({ value: c, label: c }))}
            onChange={(value) =>
              setCause.mutate(
                { id: entry.id, errorCause: (value as string | undefined) ?? null },
                { onSuccess: () => Toast.success('错因已保存') },
              )
            }
            style={{ width: 140 }}
          />
        )}
      </div>
    </article>
  );
}
