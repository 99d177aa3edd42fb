/**
 * Hands the portal's services to features that have their own provider: reads the HTTP client and the
 * current user's school and school year from the portal and passes them to the feature.
 */
import { useEffect, useMemo, type ReactNode } from 'react';
import { MarkingServicesProvider, type SubscribeRealtime } from '../src/features/marking/marking-services';
import { PapersServicesProvider } from '../src/features/papers/papers-services';
import { AnswerSheetPreviewSlot } from './answer-sheet-preview-slot';
import { usePortalServices, type PortalServices } from '../src/features/portal/portal-services';
import { useCurrentSchoolYear } from '../src/features/portal/use-current-school-year';
import { useSession } from '../src/features/portal/use-session';
import { createRealtimeSocket, type RealtimeSocket } from '../src/shared/adapters/realtime-socket';

export function WithPapers({ children }: { children: ReactNode }) {
  const { http } = usePortalServices();
  const { orgId, schoolYear } = useCurrentSchoolYear();
  const schoolYearId = schoolYear?.id ?? null;
  const schoolYearName = schoolYear?.name ?? null;
  const services = useMemo(
    () => ({
      http,
      user: { orgId, schoolYearId, schoolYearName },
      renderAnswerSheetPreview: (homeworkId: number) => <AnswerSheetPreviewSlot http={http} homeworkId={homeworkId} />,
    }),
    [http, orgId, schoolYearId, schoolYearName],
  );
  return <PapersServicesProvider services={services}>{children}</PapersServicesProvider>;
}

let portalSocket: { session: PortalServices['session']; socket: RealtimeSocket } | null = null;

/**
 * The portal's one socket, made on the first marking page: it hands the current token over so the
 * server puts it in the school's room, and reconnects when the token changes (login, refresh).
 */
function socketFor(session: PortalServices['session']): RealtimeSocket {
  if (portalSocket?.session !== session) {
    portalSocket?.socket.disconnect();
    const token = () => session.getSnapshot().context.session?.accessToken ?? null;
    const socket = createRealtimeSocket({ getAccessToken: token });
    let lastToken = token();
    session.subscribe(() => {
      const next = token();
      if (next === lastToken) return;
      lastToken = next;
      if (socket.connected || socket.active) socket.disconnect().connect();
    });
    portalSocket = { session, socket };
  }
  return portalSocket.socket;
}

/** /correct and /write: the HTTP client, live progress events over the portal's socket, the teacher's id. */
export function WithMarking({ children }: { children: ReactNode }) {
  const { http, session } = usePortalServices();
  const { user } = useSession();
  const userId = user?.id ?? null;
  const socket = socketFor(session);
  // Connected only while a marking page is open.
  useEffect(() => {
    if (!socket.active) socket.connect();
    return () => {
      socket.disconnect();
    };
  }, [socket]);
  const subscribe = useMemo<SubscribeRealtime>(
    () => (event, handler) => {
      socket.on(event, handler);
      return () => {
        socket.off(event, handler);
      };
    },
    [socket],
  );
  const services = useMemo(() => ({ http, subscribe, userId }), [http, subscribe, userId]);
  return <MarkingServicesProvider services={services}>{children}</MarkingServicesProvider>;
}
