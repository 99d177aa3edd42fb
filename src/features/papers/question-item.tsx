/**
 * One question of the bank as the compose page lists it: type, difficulty and knowledge points, the
 * stem and options typeset, the answer and analysis on request, and the basket button (or, where a
 * 题目合集 shows it, that view's own actions).
 */
import { Button, Card, Space, Tag, Typography } from '@douyinfe/semi-ui-19';
import { useState, type ReactNode } from 'react';
import { DIFFICULTY_LABELS, QUESTION_TYPE_LABELS, type Difficulty, type Question } from '../../shared/contract/papers';
import styles from './compose.module.css';
import { optionColumns } from './option-columns';
import { LazyRichText as RichText } from '../../shared/ui/lazy-rich-text';

const OPTION_LETTERS = 'ABCDEFGH';

export function QuestionItem({
  question,
  index,
  inBasket = false,
  onToggle,
  actions,
}: {
  question: Question;
  index: number;
  inBasket?: boolean;
  /** The basket button's action; without it there is no basket button. */
  onToggle?: () => void;
  actions?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Card className={styles.questionCard} bodyStyle={{ padding: 16 }} aria-label={`第 ${index} 题`}>
      <Space wrap spacing={6} className={styles.questionMeta}>
        <Tag color="blue">{QUESTION_TYPE_LABELS[question.type]}</Tag>
        <Tag color="orange">{DIFFICULTY_LABELS[question.difficulty as Difficulty]}</Tag>
        {question.shared ? null : <Tag color="green">本校题</Tag>}
        {question.knowledgePointNames.slice(0, 3).map((name) => (
          <Tag key={name}>{name}</Tag>
        ))}
        <Typography.Text type="tertiary" size="small">
          {`${question.source ? `来源：${question.source}\u3000` : ''}组卷 ${question.usageCount} 次`}
        </Typography.Text>
      </Space>
      <div className={styles.stem}>
        <RichText text={question.stem} />
      </div>
      {question.options.length > 0 ? (
        <ol className={styles.options} data-columns={optionColumns(question.options)}>
          {question.options.map((option, i) => (
            <li key={i}>
              {OPTION_LETTERS[i]}．<RichText text={option} />
            </li>
          ))}
        </ol>
      ) : null}
      {open ? (
        <div className={styles.analysis}>
          <p>
            <strong>答案：</strong>
            <RichText text={question.answer.join('；')} />
          </p>
          {question.analysis ? (
            <p>
              <strong>解析：</strong>
              <RichText text={question.analysis} />
            </p>
          ) : null}
        </div>
      ) : null}
      <div className={styles.questionActions}>
        <Button theme="borderless" size="small" onClick={() => setOpen((v) => !v)}>
          {open ? '收起解析' : '查看解析'}
        </Button>
        {actions}
        {onToggle ? (
          <Button
            theme={inBasket ? 'light' : 'solid'}
            type={inBasket ? 'danger' : 'primary'}
            size="small"
            aria-label={inBasket ? `移出试题篮：第 ${index} 题` : `加入试题篮：第 ${index} 题`}
            onClick={onToggle}
          >
            {inBasket ? '移出试题篮' : '加入试题篮'}
          </Button>
        ) : null}
      </div>
    </Card>
  );
}
