/**
 * The Chinese error screen (no router, no Semi component, so every entry can afford it): a chunk that
 * fails to load (after a deploy the old file names are gone, or the network dropped) offers 重新加载;
 * any other crash offers 重试 and 返回首页.
 */
import styles from './page-state.module.css';

/** True for the errors browsers raise when a dynamically imported module cannot be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported|Failed to fetch|Unable to preload CSS|ChunkLoadError/i.test(
    `${error.name} ${error.message}`,
  );
}

/** A router's 404 answer (react-router's ErrorResponse), recognised without importing the router. */
function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && error.status === 404 && 'internal' in error;
}

export type PageErrorProps = { error: unknown; onRetry?: () => void; homeHref?: string };

/** The message and the buttons, without the router (the kiosk and the large screen use it as well). */
export function PageError({ error, onRetry = () => window.location.reload(), homeHref = '/' }: PageErrorProps) {
  const chunk = isChunkLoadError(error);
  const notFound = isNotFound(error);
  const title = chunk ? '页面加载失败' : notFound ? '页面不存在' : '页面出错了';
  const description = chunk
    ? '系统可能刚刚更新，或网络连接中断。请检查网络后重新加载本页。'
    : notFound
      ? '您访问的页面不存在。'
      : '很抱歉，这个页面遇到了问题。您可以重试，或返回首页继续使用。已保存的数据不会丢失。';
  return (
    <div className={styles.frame} role="alert">
      <h2>{title}</h2>
      <p>{description}</p>
      <div className={styles.actions}>
        {notFound ? null : (
          <button type="button" className={styles.primary} onClick={onRetry}>
            {chunk ? '重新加载' : '重试'}
          </button>
        )}
        <button type="button" className={styles.secondary} onClick={() => window.location.assign(homeHref)}>
          返回首页
        </button>
      </div>
    </div>
  );
}
