import styles from './page-state.module.css';

/**
 * What a page shows while its code (or its first data) is on the way: a CSS spinner and a Chinese
 * label, with no Semi component, so it costs a first view nothing.
 */
export function PageLoading({ label = '页面加载中…' }: { label?: string }) {
  return (
    <div className={styles.frame} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
