/**
 * Loading state for one call of the team pages: the answer, whether it is loading, and a reload. The
 * previous answer stays shown while a reload runs. Failures have been shown by the HTTP client.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';

export function useLoaded<T>(load: (() => Promise<T>) | null) {
  const [version, setVersion] = useState(0);
  // One token per request: the answer is "loading" until the current request has settled.
  const token = useMemo(() => ({ load, version }), [load, version]);
  const [settled, setSettled] = useState<{ token: object | null; data: T | null }>({ token: null, data: null });
  useEffect(() => {
    if (!token.load) return;
    let live = true;
    token
      .load()
      .then((data) => {
        if (live) setSettled({ token, data });
      })
      .catch(() => {
        if (live) setSettled((previous) => ({ token, data: previous.data }));
      });
    return () => {
      live = false;
    };
  }, [token]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data: settled.data, loading: load !== null && settled.token !== token, reload };
}

/** Class and subject names by id, from a school's structure. */
export function namesOf(structure: {
  schoolYears: { id: number; name: string; classes: { id: number; name: string }[] }[];
  subjects: { id: number; name: string }[];
}) {
  const years = new Map(structure.schoolYears.map((y) => [y.id, y.name]));
  const classes = new Map(structure.schoolYears.flatMap((y) => y.classes.map((c) => [c.id, c.name] as const)));
  const subjects = new Map(structure.subjects.map((s) => [s.id, s.name]));
  return { years, classes, subjects };
}
