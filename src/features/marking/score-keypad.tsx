/**
 * The scoring side of /write: the score being typed against the full marks, the keypad (digits, 0.5,
 * 退格, 清空), the quick-score buttons of quickScores(maxScore), the problem-paper flag and submit.
 * Its buttons never take the focus, so Enter always means "submit" rather than "press the last button".
 */
import { Button, Checkbox, Typography } from '@douyinfe/semi-ui-19';
import type { MouseEvent } from 'react';
import { quickScores } from '../../shared/contract/marking';
import { formatScore, type ScoreKey } from './score-input';
import styles from './write.module.css';

const KEYPAD: { key: ScoreKey; label: string; aria?: string }[] = [
  { key: '7', label: '7' },
  { key: '8', label: '8' },
  { key: '9', label: '9' },
  { key: '4', label: '4' },
  { key: '5', label: '5' },
  { key: '6', label: '6' },
  { key: '1', label: '1' },
  { key: '2', label: '2' },
  { key: '3', label: '3' },
  { key: '0', label: '0' },
  { key: '.5', label: '.5', aria: '0.5' },
  { key: 'clear', label: '清空' },
];

const keepFocus = (event: MouseEvent) => event.preventDefault();

type Props = {
  text: string;
  maxScore: number;
  error: string | null;
  problem: boolean;
  submitting: boolean;
  disabled: boolean;
  submitLabel: string;
  onKey: (key: ScoreKey) => void;
  onQuickScore: (score: number) => void;
  onProblemChange: (problem: boolean) => void;
  /** The school's error causes (错因) and the one chosen for this answer. */
  causes: string[];
  errorCause: string | null;
  onCauseChange: (cause: string | null) => void;
  onSubmit: () => void;
};

export function ScoreKeypad(props: Props) {
  const { text, maxScore, error, problem, submitting, disabled } = props;
  return (
    <section className={styles.scorePanel} aria-label="打分">
      <div className={styles.scoreDisplay}>
        <output className={error ? `${styles.scoreValue} ${styles.scoreInvalid}` : styles.scoreValue} aria-label="当前分数">
          {text === '' ? '—' : text}
        </output>
        <span className={styles.scoreMax}>{`/ ${formatScore(maxScore)} 分`}</span>
      </div>
      <div className={styles.scoreError} role="alert">
        {error ?? ''}
      </div>
      <div className={styles.quickScores} role="group" aria-label="快捷给分">
        {quickScores(maxScore).map((score) => (
          <Button
            key={score}
            size="small"
            disabled={disabled}
            onMouseDown={keepFocus}
            aria-label={`给 ${formatScore(score)} 分`}
            onClick={() => props.onQuickScore(score)}
          >
            {formatScore(score)}
          </Button>
        ))}
      </div>
      <div className={styles.keypad} role="group" aria-label="数字键盘">
        {KEYPAD.map(({ key, label, aria }) => (
          <Button
            key={key}
            className={styles.keypadKey}
            disabled={disabled}
            onMouseDown={keepFocus}
            aria-label={aria ?? label}
            type={key === 'clear' ? 'tertiary' : 'primary'}
            theme="light"
            onClick={() => props.onKey(key)}
          >
            {label}
          </Button>
        ))}
      </div>
      {props.causes.length > 0 ? (
        <div className={styles.quickScores} role="group" aria-label="错因">
          {props.causes.map((cause, index) => (
            <Button
              key={cause}
              size="small"
              disabled={disabled}
              onMouseDown={keepFocus}
              aria-pressed={props.errorCause === cause}
              title={index < 9 ? `Alt+${index + 1}` : undefined}
              type={props.errorCause === cause ? 'warning' : 'tertiary'}
              theme={props.errorCause === cause ? 'solid' : 'light'}
              onClick={() => props.onCauseChange(props.errorCause === cause ? null : cause)}
            >
              {cause}
            </Button>
          ))}
        </div>
      ) : null}
      <Checkbox checked={problem} disabled={disabled} onChange={(event) => props.onProblemChange(Boolean(event.target.checked))}>
        问题卷
      </Checkbox>
      {problem ? (
        <Typography.Text type="warning" size="small">
          问题卷会交由作业布置者处理（未打分时按 0 分提交）
        </Typography.Text>
      ) : null}
      <Button
        theme="solid"
        size="large"
        block
        className={styles.submit}
        loading={submitting}
        disabled={disabled}
        onMouseDown={keepFocus}
        onClick={props.onSubmit}
      >
        {props.submitLabel}
      </Button>
    </section>
  );
}
