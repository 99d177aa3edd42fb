/**
 * Hands the portal's services to features that have their own provider: reads the HTTP client and the
 * current user's school and school year from the portal and passes them to the feature.
 */
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { MarkingServicesProvider, type SubscribeRealtime } from '../src/features/marking/marking-services';
import { PapersServicesProvider } from '../src/features/papers/papers-services';
import { usePortalServices } from '../src/features/portal/portal-services';
import { useCurrentSchoolYear } from '../src/features/portal/use-current-school-year';
import { useSession } from '../src/features/portal/use-session';
import { PageLoading } from '../src/shared/ui/page-loading';
import { WithQuestionImages } from './question-images-provider';

// The answer-sheet renderer (QR codes, layout) loads when a preview is first shown.
const AnswerSheetPreviewSlot = lazy(() =>
  import('./answer-sheet-preview-slot').then((module) => ({ default: module.AnswerSheetPreviewSlot })),
);

export function WithPapers({ children }: { children: ReactNode }) {
  const { http } = usePortalServices();
  const { orgId, schoolYear } = useCurrentSchoolYear();
  const schoolYearId = schoolYear?.id ?? null;
  const schoolYearName = schoolYear?.name ?? null;
  const services = useMemo(
    () => ({
      http,
      user: { orgId, schoolYearId, schoolYearName },
      renderAnswerSheetPreview: (homeworkId: number) => (
        <Suspense fallback={<PageLoading label="答题卡加载中…" />}>
          <AnswerSheetPreviewSlot http={http} homeworkId={homeworkId} />
        </Suspense>
      ),
    }),
    [http, orgId, schoolYearId, schoolYearName],
  );
  return (
    <PapersServicesProvider services={services}>
      <WithQuestionImages http={http}>{children}</WithQuestionImages>
    </PapersServicesProvider>
  );
}

/** /correct and /write: the HTTP client, live progress events over the portal's socket, the teacher's id. */
export function WithMarking({ children }: { children: ReactNode }) {
  const { http, socket } = usePortalServices();
  const { user } = useSession();
  const userId = user?.id ?? null;
  const subscribe = useMemo<SubscribeRealtime>(
    () => (event, handler) => {
      if (!socket) return () => undefined;
      socket.on(event, handler);
      return () => {
        socket.off(event, handler);
      };
    },
    [socket],
  );
  const services = useMemo(() => ({ http, subscribe, userId }), [http, subscribe, userId]);
  return (
    <MarkingServicesProvider services={services}>
      <WithQuestionImages http={http}>{children}</WithQuestionImages>
    </MarkingServicesProvider>
  );
}
