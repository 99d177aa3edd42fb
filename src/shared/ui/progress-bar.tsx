/**
 * A horizontal progress bar in Semi's Progress look (its track, fill colour, heights and the percentage
 * beside it), as plain markup: Semi's Progress brings its animation library with it, 6 KiB gz in the first
 * view of every page that shows one (tests/lint/bundle-budget.test.ts), for a bar this app never animates.
 */
import type { CSSProperties, JSX } from 'react';
import styles from './progress-bar.module.css';

export type ProgressBarProps = {
  /** 0-100. */
  percent: number;
  'aria-label': string;
  'aria-valuetext'?: string;
  /** Shows the percentage beside the bar. */
  showInfo?: boolean;
  size?: 'default' | 'large';
  /** The fill colour (Semi's default: the success colour). */
  stroke?: string;
  className?: string;
};

export function ProgressBar({
  percent,
  showInfo = false,
  size = 'default',
  stroke,
  className,
  ...aria
}: ProgressBarProps): JSX.Element {
  const value = Math.min(100, Math.max(0, percent));
  const fill: CSSProperties = { width: `${value}%`, ...(stroke ? { backgroundColor: stroke } : {}) };
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      {...aria}
      className={[styles.progress, size === 'large' ? styles.large : '', className ?? ''].filter(Boolean).join(' ')}
    >
      <div className={styles.track}>
        <div className={styles.fill} style={fill} />
      </div>
      {showInfo ? <span className={styles.info}>{value}%</span> : null}
    </div>
  );
}
