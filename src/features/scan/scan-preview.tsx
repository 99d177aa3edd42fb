/**
 * The scan preview (spec §9: 400px high): the latest scanned page as a thumbnail, and how many pages
 * this scan has brought so far.
 */
import { Empty, Typography } from '@douyinfe/semi-ui-19';
import { useEffect, useState } from 'react';
import { SCAN_PREVIEW_HEIGHT_PX, type ScannedPage } from '../../shared/contract/scan';
import styles from './scan.module.css';

export type ScanPreviewProps = { page: ScannedPage | null; pageCount?: number };

/** An object URL for the blob, revoked when the blob changes or the component unmounts. */
function useObjectUrl(blob: Blob | null): string | null {
  const [entry, setEntry] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    // Published from a microtask: the URL is an external resource this effect owns.
    queueMicrotask(() => setEntry({ blob, url }));
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return entry && entry.blob === blob ? entry.url : null;
}

export function ScanPreview({ page, pageCount }: ScanPreviewProps) {
  const url = useObjectUrl(page?.blob ?? null);
  return (
    <figure className={styles.preview} style={{ height: SCAN_PREVIEW_HEIGHT_PX, margin: 0 }} aria-label="扫描预览">
      {page && url ? <img src={url} alt={`第 ${page.sequence} 张扫描图像`} /> : <Empty description="暂无扫描图像" />}
      {page && pageCount !== undefined && (
        <figcaption>
          <Typography.Text type="tertiary">已扫描 {pageCount} 张</Typography.Text>
        </figcaption>
      )}
    </figure>
  );
}
