/**
 * Hands the portal's services to the analysis pages: the HTTP client, the current school year (the
 * filters' default) and one react-query client for the analysis queries (cached per filter).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { NoSchoolSlot } from './no-school-slot';
import { AnalysisServicesProvider } from '../src/features/analysis/analysis-services';
import { usePortalServices } from '../src/features/portal/portal-services';
import { useCurrentSchoolYear } from '../src/features/portal/use-current-school-year';
import { WithQuestionImages } from './question-images-provider';

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 60_000, refetchOnWindowFocus: false, retry: 1 } },
});

export function WithAnalysis({ children }: { children: ReactNode }) {
  const { http } = usePortalServices();
  const { orgId, schoolYear } = useCurrentSchoolYear();
  const schoolYearId = schoolYear?.id ?? null;
  const services = useMemo(() => ({ http, schoolYearId }), [http, schoolYearId]);
  // Every request of these pages needs a school: a teacher in none is told how to create or join one.
  if (orgId === null) return <NoSchoolSlot />;
  return (
    <QueryClientProvider client={queryClient}>
      <AnalysisServicesProvider services={services}>
        <WithQuestionImages http={http}>{children}</WithQuestionImages>
      </AnalysisServicesProvider>
    </QueryClientProvider>
  );
}
