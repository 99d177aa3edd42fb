/**
 * Semi's Pagination (4 KiB gz; 10 KiB with the InputNumber it imports for its quick jumper) fetched with a
 * page's data rather than before the page shows, as lazy-table.tsx does for Table: its download starts
 * when the page's chunk is evaluated, in parallel with the page's first requests, and the pager shows
 * once it is in (it only shows under a list longer than a page, which arrives with the data).
 */
import type { PaginationProps } from '@douyinfe/semi-ui-19/lib/es/pagination';
import { lazy, Suspense, type ReactElement } from 'react';

const loadPagination = () => import('./pagination-chunk');
// Started now, not at the first render; a failed start is retried by lazy()'s own import, whose failure
// reaches the page's error state with its retry.
const paginationChunk = loadPagination();
paginationChunk.catch(() => undefined);
const Pagination = lazy(() => paginationChunk.catch(loadPagination));

export function LazyPagination(props: PaginationProps): ReactElement {
  return (
    <Suspense fallback={null}>
      <Pagination {...props} />
    </Suspense>
  );
}
