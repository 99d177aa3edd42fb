/** The recognition counts of a homework (已上传 / 已识别 / 待识别 / 待处理异常) and how far recognition has got. */
import { Spin } from '@douyinfe/semi-ui-19';
import type { MarkingOverview } from '../../shared/contract/marking';
import styles from './marking.module.css';
import { ProgressBar } from '../../shared/ui/progress-bar';

/** `scannedStudents`: students with answers; scores can exist without pages (entered by the demo seed). */
type Props = { recognition: MarkingOverview['recognition']; scannedStudents: number; onShowReview: () => void };

export function RecognitionPanel({ recognition, scannedStudents, onShowReview }: Props) {
  const { stored, recognised, pending, review } = recognition;
  const percent = stored === 0 ? 0 : Math.round((recognised / stored) * 100);
  return (
    <section className={styles.recognition} aria-label="识别进度">
      <div className={styles.stat}>
        <span className={styles.statValue}>{stored}</span>
        <span className={styles.statLabel}>已上传页</span>
      </div>
      <div className={styles.stat}>
        <span className={styles.statValue}>{recognised}</span>
        <span className={styles.statLabel}>已识别页</span>
      </div>
      <div className={styles.stat}>
        <span className={styles.statValue}>{pending}</span>
        <span className={styles.statLabel}>待识别页</span>
      </div>
      <button
        type="button"
        className={review > 0 ? `${styles.statButton} ${styles.statWarning}` : styles.statButton}
        onClick={onShowReview}
      >
        <span className={styles.statValue}>{review}</span>
        <span className={styles.statLabel}>待处理异常</span>
      </button>
      <div className={styles.recognitionBar}>
        <span className={styles.statLabel}>
          {stored === 0
            ? scannedStudents > 0
              ? `已有 ${scannedStudents} 名学生的成绩，没有扫描图像`
              : '还没有扫描上传的答题卡'
            : pending > 0
              ? `正在识别… ${recognised}/${stored}`
              : `识别完成 ${recognised}/${stored}`}
          {pending > 0 ? <Spin size="small" style={{ marginLeft: 8 }} /> : null}
        </span>
        <ProgressBar
          percent={percent}
          showInfo
          aria-label="识别进度"
          aria-valuetext={`${recognised}/${stored}`}
          stroke={review > 0 ? 'var(--semi-color-warning)' : undefined}
        />
      </div>
    </section>
  );
}
