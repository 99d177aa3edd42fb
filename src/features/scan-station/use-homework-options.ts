import { useEffect, useState } from 'react';
import type { HttpClient } from '../../shared/adapters/http-client';
import { scannableHomeworkSchema, type Homework } from '../../shared/contract/papers';

export type HomeworkOptions = { status: 'loading' | 'ready' | 'failed'; list: Homework[] };

/**
 * The homework the signed-in teacher may scan (not drafts), newest first: the server applies the rule
 * it creates scan batches under, so nothing offered here is refused when scanning starts.
 */
export function useHomeworkOptions(http: HttpClient): HomeworkOptions {
  const [state, setState] = useState<HomeworkOptions>({ status: 'loading', list: [] });
  useEffect(() => {
    let cancelled = false;
    http.get('/api/homework/scannable', undefined, { schema: scannableHomeworkSchema, silent: true }).then(
      (list) => !cancelled && setState({ status: 'ready', list }),
      () => !cancelled && setState({ status: 'failed', list: [] }),
    );
    return () => {
      cancelled = true;
    };
  }, [http]);
  return state;
}
