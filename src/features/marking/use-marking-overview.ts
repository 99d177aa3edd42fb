/**
 * The marking overview of one homework, kept live: loaded once, then patched by the school's
 * RECOGNITION_PROGRESS_EVENT (the four recognition counts) and MARKING_PROGRESS_EVENT (a question's
 * done/total) for this homework, and replaced by the overview a saved assignment answers with. Every
 * event of this homework also schedules one reload (at most one per LIVE_RELOAD_MS), so what the counts
 * do not carry follows too: the question cards' answer totals, the status badge, the missing students. A
 * reload starts again from the server's answer; so does a reconnect of the socket (events sent while it
 * was away are lost).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { MARKING_PROGRESS_EVENT, markingProgressSchema, type MarkingOverview } from '../../shared/contract/marking';
import { RECOGNITION_PROGRESS_EVENT, recognitionProgressSchema } from '../../shared/contract/recognition';
import { fetchOverview } from './marking-api';
import { useMarkingServices } from './marking-services';
import { useRemote } from '../../shared/ui/use-remote';

/** Events arriving together (a stack being recognised) cause one reload, this long after the first. */
export const LIVE_RELOAD_MS = 1000;

/** The local value and the server answer it was derived from (a newer answer wins over local patches). */
type Live = { source: MarkingOverview | undefined; value: MarkingOverview | undefined };

export function useMarkingOverview(homeworkId: number | null) {
  const { http, subscribe } = useMarkingServices();
  const remote = useRemote(homeworkId ? `overview:${homeworkId}` : null, () => fetchOverview(http, homeworkId ?? 0));
  const [live, setLive] = useState<Live>({ source: undefined, value: undefined });
  const { reload } = remote;
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reloadSoon = useCallback(() => {
    if (reloadTimer.current !== null) return;
    reloadTimer.current = setTimeout(() => {
      reloadTimer.current = null;
      reload();
    }, LIVE_RELOAD_MS);
  }, [reload]);
  useEffect(
    () => () => {
      if (reloadTimer.current !== null) clearTimeout(reloadTimer.current);
      reloadTimer.current = null;
    },
    [],
  );
  const sourceRef = useRef(remote.data);
  useEffect(() => {
    sourceRef.current = remote.data;
  }, [remote.data]);

  const patch = useCallback((change: (overview: MarkingOverview) => MarkingOverview) => {
    setLive((prev) => {
      const source = sourceRef.current;
      const base = prev.source === source ? prev.value : source;
      return base ? { source, value: change(base) } : prev;
    });
  }, []);

  useEffect(() => {
    if (!homeworkId) return;
    const stopRecognition = subscribe(RECOGNITION_PROGRESS_EVENT, (payload) => {
      const event = recognitionProgressSchema.safeParse(payload);
      if (!event.success || event.data.homeworkId !== homeworkId) return;
      const { stored, recognised, pending, review } = event.data;
      patch((overview) => ({ ...overview, recognition: { stored, recognised, pending, review } }));
      reloadSoon();
    });
    const stopMarking = subscribe(MARKING_PROGRESS_EVENT, (payload) => {
      const event = markingProgressSchema.safeParse(payload);
      if (!event.success || event.data.homeworkId !== homeworkId) return;
      const { questionNo, done, total } = event.data;
      patch((overview) => ({
        ...overview,
        questions: overview.questions.map((q) => (q.questionNo === questionNo ? { ...q, done, total } : q)),
      }));
      reloadSoon();
    });
    const stopReconnect = subscribe('connect', () => reload());
    return () => {
      stopRecognition();
      stopMarking();
      stopReconnect();
    };
  }, [homeworkId, subscribe, patch, reload, reloadSoon]);

  const replace = useCallback((overview: MarkingOverview) => patch(() => overview), [patch]);

  const overview = live.source === remote.data && live.value ? live.value : remote.data;
  return { overview, loading: remote.loading, error: remote.error, reload: remote.reload, replace };
}
