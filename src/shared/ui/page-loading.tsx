import { Spin } from '@douyinfe/semi-ui-19';
import styles from './page-state.module.css';

/** What a page shows while its code (or its first data) is on the way. */
export function PageLoading({ label = '页面加载中…' }: { label?: string }) {
  return (
    <div className={styles.frame} role="status" aria-live="polite">
      <Spin size="large" />
      <span>{label}</span>
    </div>
  );
}
