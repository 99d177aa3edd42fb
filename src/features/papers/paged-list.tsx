/**
 * One page of a list of 作业列表's tabs (作业, 我的试卷): a table on a wide screen, cards on a small one,
 * the pages below, and what to show when the list is empty. Plus the Word download both lists offer.
 */
import { Pagination, Spin } from '@douyinfe/semi-ui-19';
import { LazyTable } from '../../shared/ui/lazy-table';
import type { ColumnProps } from '@douyinfe/semi-ui-19/lib/es/table';
import { useState, type ReactNode } from 'react';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../../shared/ui/use-media-query';
import styles from './pages/paperlist-page.module.css';
import { downloadPaperDocx } from './papers-api';
import { usePapersServices } from './papers-services';

type Props<Row extends { id: number }> = {
  /** The list's accessible name (作业列表, 试卷列表). */
  label: string;
  rows: Row[];
  total: number;
  loading: boolean;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  columns: ColumnProps<Row>[];
  /** A row as a card on a small screen. */
  card: (row: Row) => ReactNode;
  /** Shown when nothing matches, once loaded. */
  empty: ReactNode;
};

export function PagedList<Row extends { id: number }>(props: Props<Row>) {
  const { label, rows, total, loading, page, pageSize, onPageChange, columns, card, empty } = props;
  const small = useMediaQuery(SMALL_SCREEN_QUERY);
  if (!loading && rows.length === 0) return <>{empty}</>;
  return (
    <>
      {small ? (
        <Spin spinning={loading}>
          <ul className={styles.cards} aria-label={label}>
            {rows.map((row) => (
              <li key={row.id} className={styles.card}>
                {card(row)}
              </li>
            ))}
          </ul>
        </Spin>
      ) : (
        <LazyTable rowKey="id" columns={columns} dataSource={rows} loading={loading} pagination={false} aria-label={label} />
      )}
      {total > pageSize ? (
        <Pagination
          className={styles.pagination}
          total={total}
          pageSize={pageSize}
          currentPage={page}
          onPageChange={onPageChange}
        />
      ) : null}
    </>
  );
}

/** 下载 Word of a paper, and which paper (by the row's id) is being downloaded. */
export function useWordDownload() {
  const { http } = usePapersServices();
  const [downloading, setDownloading] = useState<number | null>(null);
  const download = async (rowId: number, paperId: number, title: string) => {
    setDownloading(rowId);
    try {
      await downloadPaperDocx(http, paperId, title);
    } catch {
      // The client has shown 题量过大，下载失败.
    } finally {
      setDownloading(null);
    }
  };
  return { downloading, download };
}
