/**
 * A question's score in 试题篮 (Semi's InputNumber, 6 KiB gz): loaded by the basket when it first shows a
 * question (basket-panel.tsx), not with /edit, whose basket starts empty.
 */
import { InputNumber } from '@douyinfe/semi-ui-19';
import styles from './compose.module.css';

export const MAX_QUESTION_SCORE = 100;

export function BasketScoreInput({ no, score, onScore }: { no: number; score: number; onScore: (score: number) => void }) {
  return (
    <InputNumber
      size="small"
      aria-label={`第 ${no} 题分值`}
      className={styles.itemScore}
      min={0.5}
      max={MAX_QUESTION_SCORE}
      step={0.5}
      precision={1}
      suffix="分"
      hideButtons
      value={score}
      onNumberChange={(value) => {
        if (Number.isFinite(value) && value > 0 && value <= MAX_QUESTION_SCORE) onScore(value);
      }}
    />
  );
}
