import { useEffect, useState } from 'react';
import type { HttpClient } from '../../shared/adapters/http-client';
import { homeworkPageSchema, type Homework } from '../../shared/contract/papers';

export type HomeworkOptions = { status: 'loading' | 'ready' | 'failed'; list: Homework[] };

/** The school's homework a teacher may scan for (not drafts), newest first. */
export function useHomeworkOptions(http: HttpClient): HomeworkOptions {
  const [state, setState] = useState<HomeworkOptions>({ status: 'loading', list: [] });
  useEffect(() => {
    let cancelled = false;
    http.get('/api/homework', { page: 1, pageSize: 100 }, { schema: homeworkPageSchema, silent: true }).then(
      (page) => !cancelled && setState({ status: 'ready', list: page.list.filter((h) => h.status !== 'draft') }),
      () => !cancelled && setState({ status: 'failed', list: [] }),
    );
    return () => {
      cancelled = true;
    };
  }, [http]);
  return state;
}
