/**
 * The large screen's display, shared by the wall screen (display token) and the portal's /largescreen
 * (a teacher's token): on every (re)connect it fetches a snapshot over HTTP, then applies the live
 * events to it (counters move at once; a throttled refresh brings the per-class figures), rotates its
 * panels, jumps to the panel of a new event, and never shows a stale number without saying so
 * (更新于 hh:mm:ss, and a banner when updates stop). It reconnects by itself; a server-side disconnect
 * (the screen was re-scoped) is followed by a fresh snapshot and a reconnect.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  ANSWER_SHEETS_PRINTED_EVENT,
  PANEL_LABELS,
  SCREEN_REVOKED_EVENT,
  type AnswerSheetsPrintedEvent,
  type LargeScreenSnapshot,
  type ScreenPanel,
} from '../../shared/contract/large-screen';
import { MARKING_PROGRESS_EVENT, type MarkingProgress } from '../../shared/contract/marking';
import { RECOGNITION_PROGRESS_EVENT, type RecognitionProgress } from '../../shared/contract/recognition';
import { SCAN_PAGE_STORED_EVENT, type ScanPageStoredEvent } from '../../shared/contract/scan-upload';
import type { RealtimeSocket } from '../../shared/adapters/realtime-socket';
import styles from './large-screen.module.css';
import { applyEvent, clockText, panelOf, REFRESH_THROTTLE_MS, STALE_AFTER_MS, type LiveEvent } from './panel-data';
import { ChartsContext, type LoadCharts } from './screen-chart';
import { MarkingPanel, PipelinePanel, ResultsPanel } from './screen-panels';
import { useClock } from './use-clock';
import { useConnectionStatus } from './use-connection-status';
import { usePanelRotation } from './use-panel-rotation';

const NO_PANELS: readonly ScreenPanel[] = [];

/** A refresh also runs this often without events, so the estimate and 更新于 stay current. */
const PERIODIC_REFRESH_MS = 60_000;

export type LastSnapshot = {
  load: () => { snapshot: LargeScreenSnapshot; at: Date } | null;
  save: (snapshot: LargeScreenSnapshot, at: Date) => void;
};

export type DisplayViewProps = {
  socket: RealtimeSocket;
  fetchSnapshot: () => Promise<LargeScreenSnapshot>;
  /** The token no longer opens the display (revoked): the wall screen goes back to pairing. */
  isRevoked?: (error: unknown) => boolean;
  onRevoked?: () => void;
  /** The wall screen's last snapshot: kept on each fetch, shown (with its time) when the first fetch fails. */
  lastSnapshot?: LastSnapshot;
  loadCharts: LoadCharts;
  /** Kiosk: no controls, no cursor. */
  kiosk: boolean;
  /** Controls shown outside kiosk mode (the portal's 大屏管理). */
  controls?: ReactNode;
  /** Fill the parent (the portal's page, with its footer under it) instead of the whole viewport. */
  embedded?: boolean;
};

export function DisplayView({
  socket,
  fetchSnapshot,
  isRevoked,
  onRevoked,
  lastSnapshot,
  loadCharts,
  kiosk,
  controls,
  embedded = false,
}: DisplayViewProps) {
  const status = useConnectionStatus(socket);
  const now = useClock();
  const [snapshot, setSnapshot] = useState<LargeScreenSnapshot | null>(null);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  const [failed, setFailed] = useState(false);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastRefresh = useRef(0);
  const panels = useRef<readonly ScreenPanel[]>([]);
  useEffect(() => {
    panels.current = snapshot?.panels ?? [];
  }, [snapshot?.panels]);
  const { panel, jump, choose } = usePanelRotation(snapshot?.panels ?? NO_PANELS);

  const refresh = useCallback(async () => {
    lastRefresh.current = Date.now();
    try {
      const next = await fetchSnapshot();
      const at = new Date();
      setSnapshot(next);
      setUpdatedAt(at);
      setFailed(false);
      lastSnapshot?.save(next, at);
    } catch (error) {
      if (isRevoked?.(error)) {
        onRevoked?.();
        return;
      }
      setFailed(true);
      // Started while the server is down: the last display, with the time it was fetched (the banner is up).
      const kept = lastSnapshot?.load();
      if (kept) {
        setSnapshot((current) => current ?? kept.snapshot);
        setUpdatedAt((current) => current ?? kept.at);
      }
    }
  }, [fetchSnapshot, isRevoked, onRevoked, lastSnapshot]);

  /** At most one refresh per REFRESH_THROTTLE_MS after a burst of events. */
  const scheduleRefresh = useCallback(() => {
    if (refreshTimer.current) return;
    const wait = Math.max(0, lastRefresh.current + REFRESH_THROTTLE_MS - Date.now());
    refreshTimer.current = setTimeout(() => {
      refreshTimer.current = null;
      void refresh();
    }, wait);
  }, [refresh]);

  useEffect(() => {
    queueMicrotask(() => void refresh());
    const periodic = setInterval(() => void refresh(), PERIODIC_REFRESH_MS);
    return () => {
      clearInterval(periodic);
      if (refreshTimer.current) clearTimeout(refreshTimer.current);
      refreshTimer.current = null;
    };
  }, [refresh]);

  useEffect(() => {
    const live = (event: LiveEvent) => {
      const target = panelOf(event, panels.current);
      if (target) jump(target);
      setSnapshot((current) => (current ? applyEvent(current, event) : current));
      setUpdatedAt(new Date());
      scheduleRefresh();
    };
    const onPage = (payload: ScanPageStoredEvent) => live({ kind: 'pageStored', homeworkId: payload.homeworkId });
    const onRecognition = (progress: RecognitionProgress) => live({ kind: 'recognition', progress });
    const onMarking = (progress: MarkingProgress) => live({ kind: 'marking', progress });
    const onPrinted = (printed: AnswerSheetsPrintedEvent) => live({ kind: 'printed', printed });
    // Missed events are recovered from state: every (re)connect starts from a fresh snapshot.
    const onConnect = () => void refresh();
    const onDisconnect = (reason: string) => {
      // The server sent us away (re-scoped or revoked): ask the snapshot which, then come back.
      if (reason === 'io server disconnect') void refresh().then(() => socket.connect());
    };
    const onRevokedEvent = () => onRevoked?.();
    socket.on(SCAN_PAGE_STORED_EVENT, onPage);
    socket.on(RECOGNITION_PROGRESS_EVENT, onRecognition);
    socket.on(MARKING_PROGRESS_EVENT, onMarking);
    socket.on(ANSWER_SHEETS_PRINTED_EVENT, onPrinted);
    socket.on(SCREEN_REVOKED_EVENT, onRevokedEvent);
    socket.on('connect', onConnect);
    socket.on('disconnect', onDisconnect);
    return () => {
      socket.off(SCAN_PAGE_STORED_EVENT, onPage);
      socket.off(RECOGNITION_PROGRESS_EVENT, onRecognition);
      socket.off(MARKING_PROGRESS_EVENT, onMarking);
      socket.off(ANSWER_SHEETS_PRINTED_EVENT, onPrinted);
      socket.off(SCREEN_REVOKED_EVENT, onRevokedEvent);
      socket.off('connect', onConnect);
      socket.off('disconnect', onDisconnect);
    };
  }, [socket, refresh, scheduleRefresh, onRevoked, jump]);

  const stale = status !== 'connected' || failed || updatedAt === null || now.getTime() - updatedAt.getTime() > STALE_AFTER_MS;
  return (
    <ChartsContext.Provider value={loadCharts}>
      <main className={`${styles.screen} ${kiosk ? styles.kiosk : ''} ${embedded ? styles.embedded : ''}`}>
        <header className={styles.header}>
          <h1 className={styles.title}>{snapshot ? `${snapshot.schoolName} · ${snapshot.title}` : '智慧作业 · 大屏'}</h1>
          {snapshot ? <span className={styles.scope}>{snapshot.scopeLabel}</span> : null}
          <nav className={styles.tabs} aria-label="显示内容">
            {(snapshot?.panels ?? []).map((p) =>
              kiosk ? (
                <span key={p} className={p === panel ? styles.tabActive : styles.tab}>
                  {PANEL_LABELS[p]}
                </span>
              ) : (
                <button key={p} type="button" className={p === panel ? styles.tabActive : styles.tab} onClick={() => choose(p)}>
                  {PANEL_LABELS[p]}
                </button>
              ),
            )}
          </nav>
          <span className={styles.clock}>{clockText(now)}</span>
        </header>
        {stale ? (
          <p className={styles.banner} role="alert">
            {status === 'disconnected'
              ? '实时更新已中断，正在重新连接…'
              : status === 'connecting'
                ? '正在连接实时更新…'
                : failed
                  ? '数据暂时无法更新，正在重试…'
                  : '正在加载数据…'}
            {updatedAt ? ` 以下数据更新于 ${clockText(updatedAt)}` : ''}
          </p>
        ) : null}
        <div className={styles.body}>
          {snapshot && panel === 'pipeline' ? <PipelinePanel snapshot={snapshot} /> : null}
          {snapshot && panel === 'marking' ? <MarkingPanel snapshot={snapshot} /> : null}
          {snapshot && panel === 'results' ? <ResultsPanel snapshot={snapshot} /> : null}
        </div>
        <footer className={styles.footer}>
          <span role="status" className={styles.status}>
            <i className={status === 'connected' ? styles.dotOk : styles.dotWarn} />
            {status === 'connected'
              ? '实时数据已连接'
              : status === 'connecting'
                ? '正在连接服务器…'
                : '与服务器的连接已断开，正在重连…'}
          </span>
          <span className={styles.updated} data-testid="updated-at">
            {updatedAt ? `更新于 ${clockText(updatedAt)}` : '尚未更新'}
          </span>
          {!kiosk && controls ? <span className={styles.controls}>{controls}</span> : null}
        </footer>
      </main>
    </ChartsContext.Provider>
  );
}
