/**
 * The marking session of /write for one question: the answer I am marking now (asked of the server with
 * `next`, or in arbitration mode taken from the arbitration list), my scored answers (history, newest
 * first) and which of them I have gone back to, the answers I skipped, and submitting a score.
 * A submit is never sent twice at once and a failed one leaves everything in place for a retry; after a
 * score is saved the next answer is fetched, and failing to fetch it never loses the saved score.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '../../shared/adapters/http-client';
import { MARKING_MESSAGES, type MarkingTask, type ScoreSubmit } from '../../shared/contract/marking';
import { fetchArbitration, fetchHistory, fetchNextTask, submitScore } from './marking-api';
import { useMarkingServices } from './marking-services';

export type MarkingMode = 'marking' | 'arbitration';

const CONFLICT_STATUS = 409;

/** Why there is no answer to show: loading, all done, or the server refused (and said why). */
export type SessionStatus = 'loading' | 'ready' | 'finished' | 'failed';

export type MarkingSession = {
  status: SessionStatus;
  /** The server's reason when `failed` (e.g. not assigned to this question). */
  failure: string | null;
  /** The answer on screen: a history entry I went back to, else the current one. */
  shown: MarkingTask | null;
  /** Index in `history` of the answer I went back to, or null for the current answer. */
  viewing: number | null;
  history: MarkingTask[];
  progress: MarkingTask['progress'] | null;
  skipped: number[];
  submitting: boolean;
  submit: (score: ScoreSubmit) => Promise<boolean>;
  back: () => void;
  forward: () => void;
  open: (historyIndex: number | null) => void;
  skip: () => void;
  /** Marks the answers I skipped again. */
  revisitSkipped: () => void;
  retry: () => void;
};

export function useMarkingSession(homeworkId: number, questionNo: number, mode: MarkingMode): MarkingSession {
  const { http } = useMarkingServices();
  const [status, setStatus] = useState<SessionStatus>('loading');
  const [failure, setFailure] = useState<string | null>(null);
  const [current, setCurrent] = useState<MarkingTask | null>(null);
  const [history, setHistory] = useState<MarkingTask[]>([]);
  const [viewing, setViewing] = useState<number | null>(null);
  const [progress, setProgress] = useState<MarkingTask['progress'] | null>(null);
  const [skipped, setSkipped] = useState<number[]>([]);
  const [submitting, setSubmitting] = useState(false);
  // Refs, not state, guard against a second Enter arriving before React re-renders.
  const busy = useRef(false);
  const arbitrated = useRef(new Set<number>());

  /** Asks for the next answer and shows it (or the finished or failed state); no state changes before the answer. */
  const settleNext = useCallback(
    async (skip: number[]) => {
      try {
        let next: MarkingTask | null;
        if (mode === 'arbitration') {
          const waiting = (await fetchArbitration(http, homeworkId)).filter(
            (t) => t.questionNo === questionNo && !arbitrated.current.has(t.taskId) && !skip.includes(t.taskId),
          );
          next = waiting[0] ?? null;
          setProgress({ mine: arbitrated.current.size, left: waiting.length });
        } else {
          next = await fetchNextTask(http, homeworkId, questionNo, skip);
          if (next) setProgress(next.progress);
          else setProgress((p) => (p ? { ...p, left: 0 } : p));
        }
        setCurrent(next);
        setFailure(null);
        setStatus(next ? 'ready' : 'finished');
      } catch (error) {
        setCurrent(null);
        setFailure(describeFailure(error));
        setStatus('failed');
      }
    },
    [http, homeworkId, questionNo, mode],
  );

  const loadNext = useCallback(
    (skip: number[]) => {
      setStatus('loading');
      setCurrent(null);
      return settleNext(skip);
    },
    [settleNext],
  );

  useEffect(() => {
    let active = true;
    fetchHistory(http, homeworkId, questionNo).then(
      (list) => {
        if (active) setHistory((mine) => withLoaded(mine, list));
      },
      () => undefined,
    );
    void settleNext([]);
    return () => {
      active = false;
    };
  }, [http, homeworkId, questionNo, settleNext]);

  const shown = viewing === null ? current : (history[viewing] ?? null);

  const submit = useCallback(
    async (score: ScoreSubmit): Promise<boolean> => {
      const task = shown;
      if (!task || busy.current) return false;
      busy.current = true;
      setSubmitting(true);
      try {
        const saved = await submitScore(http, task.taskId, score);
        if (mode === 'arbitration') arbitrated.current.add(saved.taskId);
        setProgress((p) =>
          mode === 'arbitration' ? { mine: arbitrated.current.size, left: Math.max(0, (p?.left ?? 1) - 1) } : saved.progress,
        );
        setHistory((list) => withSaved(list, saved));
        if (viewing === null) {
          await loadNext(skipped);
        } else {
          // Corrected an earlier score: move on towards the current answer.
          setViewing(viewing === 0 ? null : viewing - 1);
        }
        return true;
      } catch (error) {
        // A conflict (taken by a colleague, no longer needed, marked by me in another round): nothing to
        // retry on this answer, so mark the next one. The client has shown why.
        if (viewing === null && error instanceof ApiRequestError && error.status === CONFLICT_STATUS) {
          await loadNext(skipped);
        }
        return false;
      } finally {
        busy.current = false;
        setSubmitting(false);
      }
    },
    [shown, http, mode, viewing, loadNext, skipped],
  );

  const skip = useCallback(() => {
    if (!current || busy.current) return;
    const next = [...skipped, current.taskId];
    setSkipped(next);
    setViewing(null);
    void loadNext(next);
  }, [current, skipped, loadNext]);

  const revisitSkipped = useCallback(() => {
    setSkipped([]);
    setViewing(null);
    void loadNext([]);
  }, [loadNext]);

  return {
    status,
    failure,
    shown,
    viewing,
    history,
    progress,
    skipped,
    submitting,
    submit,
    back: () => {
      if (busy.current || history.length === 0) return;
      setViewing((v) => (v === null ? 0 : Math.min(v + 1, history.length - 1)));
    },
    forward: () => {
      if (busy.current) return;
      setViewing((v) => (v === null || v === 0 ? null : v - 1));
    },
    open: (index) => {
      if (!busy.current) setViewing(index);
    },
    skip,
    revisitSkipped,
    retry: () => void loadNext(skipped),
  };
}

/** A saved score in the history (newest first): a re-scored answer keeps its place, a new one goes on top. */
export function withSaved(history: MarkingTask[], saved: MarkingTask): MarkingTask[] {
  return history.some((t) => t.taskId === saved.taskId)
    ? history.map((t) => (t.taskId === saved.taskId ? saved : t))
    : [saved, ...history];
}

/** The server's history (newest first) behind what was saved on this page meanwhile. */
export function withLoaded(history: MarkingTask[], loaded: MarkingTask[]): MarkingTask[] {
  return [...history, ...loaded.filter((t) => !history.some((mine) => mine.taskId === t.taskId))];
}

function describeFailure(error: unknown): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 403) return MARKING_MESSAGES.notAssigned;
    return error.message;
  }
  return '获取答卷失败，请重试';
}
