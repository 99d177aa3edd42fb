/**
 * The portal's /largescreen: the wall screen's display for a teacher to project (no top bar), scoped by
 * the teacher's own visibleScope and fed by the portal's socket and HTTP client, with 大屏管理 for admins
 * and grade directors (`?pair=<code>`, from a screen's QR code, opens it with the code filled in).
 * `?kiosk=1` hides the controls and the cursor.
 */
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DisplayView } from '../src/features/large-screen/display-view';
import { usePortalServices } from '../src/features/portal/portal-services';
import { useSession } from '../src/features/portal/use-session';
import type { RealtimeEvents } from '../src/shared/adapters/lazy-realtime-socket';
import type { RealtimeSocket } from '../src/shared/adapters/realtime-socket';
import { largeScreenSnapshotSchema } from '../src/shared/contract/large-screen';
import { lazyPart } from '../src/shared/ui/lazy-part';

const loadCharts = () => import('../src/features/analysis/echarts-setup');

/**
 * 大屏管理 (its side sheet, Table, Select and form fields) loads after the display shows: its button only
 * appears once the server has answered that this user may manage screens, and few users may.
 */
const ScreensManager = lazyPart(() => import('../src/features/large-screen/screens-manager'), 'ScreensManager');

/** The portal's socket itself once it is up: the display follows its connection, not only its events. */
function useConnectedSocket(socket: RealtimeEvents | null): RealtimeSocket | null {
  const [ready, setReady] = useState<RealtimeSocket | null>(null);
  useEffect(() => {
    if (!socket || !('ready' in socket) || typeof socket.ready !== 'function') return;
    let live = true;
    (socket.ready as () => Promise<RealtimeSocket>)().then(
      (connected) => live && setReady(connected),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [socket]);
  return ready;
}

export function TeacherLargeScreenPage() {
  const { http, socket: events } = usePortalServices();
  const socket = useConnectedSocket(events);
  const { user } = useSession();
  // 大屏管理 only for those the server lets pair screens (admins, grade directors): others never ask it.
  const school = user?.orgs.find((org) => org.id === user.userGradeInfo.orgDefaultId);
  const mayManage = school !== undefined && (school.role !== 'teacher' || school.gradeDirector);
  const [searchParams] = useSearchParams();
  const fetchSnapshot = useCallback(
    () => http.get('/api/largescreen/snapshot', undefined, { schema: largeScreenSnapshotSchema, silent: true }),
    [http],
  );
  const pair = searchParams.get('pair');
  // The socket exists while signed in (the navigation guard sends everyone else to /); it loads on first use.
  if (!socket) return null;
  return (
    <DisplayView
      socket={socket}
      fetchSnapshot={fetchSnapshot}
      loadCharts={loadCharts}
      kiosk={searchParams.get('kiosk') === '1'}
      embedded
      controls={mayManage && <ScreensManager http={http} initialCode={pair && /^\d{6}$/.test(pair) ? pair : null} />}
    />
  );
}
