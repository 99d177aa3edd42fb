/**
 * Loads data for a component: runs `load` whenever `key` (a string naming everything the request
 * depends on; null for "nothing to load") changes or `reload()` is called, and ignores answers to
 * requests that are no longer current. The HTTP client has already toasted an error; while a new
 * request runs, the previous data stays visible.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export type Remote<T> = { data: T | undefined; loading: boolean; error: Error | null; reload: () => void };

type Settled<T> = { key: string | null; generation: number; data: T | undefined; error: Error | null };

export function useRemote<T>(key: string | null, load: () => Promise<T>): Remote<T> {
  const [generation, setGeneration] = useState(0);
  const [settled, setSettled] = useState<Settled<T>>({ key: null, generation: -1, data: undefined, error: null });
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });

  useEffect(() => {
    if (key === null) return;
    let current = true;
    loadRef.current().then(
      (data) => {
        if (current) setSettled({ key, generation, data, error: null });
      },
      (reason: unknown) => {
        const error = reason instanceof Error ? reason : new Error(String(reason));
        if (current) setSettled((s) => ({ key, generation, data: s.data, error }));
      },
    );
    return () => {
      current = false;
    };
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const fresh = settled.key === key && settled.generation === generation;
  return {
    data: key === null ? undefined : settled.data,
    loading: key !== null && !fresh,
    error: fresh ? settled.error : null,
    reload,
  };
}
