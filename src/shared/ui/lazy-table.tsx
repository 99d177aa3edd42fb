/**
 * Semi's Table (28 KiB gz; 45-60 KiB with the Pagination, Select, InputNumber and Tag it imports, which a
 * page may not otherwise need) fetched with a page's data rather than before the page shows: its download
 * starts when a page that shows a table loads (this module is evaluated with the page's chunk), in
 * parallel with the page's first requests, so the page's heading and filters are on screen at once and
 * the table arrives about when its rows do. Until then the loading state stands in its place.
 */
import type { TableProps } from '@douyinfe/semi-ui-19/lib/es/table';
import { lazy, Suspense, type ReactElement } from 'react';
import { PageLoading } from './page-loading';

const loadTable = () => import('./table-chunk');
// Started now, not at the first render: some pages render their table only once the rows are in.
const tableChunk = loadTable();
// A failed start (a deploy replaced the chunk, the network dropped) is retried by lazy()'s own import,
// whose failure reaches the page's error state with its retry.
tableChunk.catch(() => undefined);
const Table = lazy(() => tableChunk.catch(loadTable));

/** Semi's Table, with its own props (the row type as its type argument, as Table<Row>). */
export function LazyTable<Row extends Record<string, unknown>>(props: TableProps<Row>): ReactElement {
  return (
    <Suspense fallback={<PageLoading label="表格加载中…" />}>
      <Table {...(props as TableProps)} />
    </Suspense>
  );
}
