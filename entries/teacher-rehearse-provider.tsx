/**
 * Hands the portal's services to the re-practice page: the HTTP client, the current school year, the
 * question bank's rich-text renderer (KaTeX) and one react-query client for its queries.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { NoSchoolSlot } from './no-school-slot';
import { RichText } from '../src/shared/ui/rich-text';
import { usePortalServices } from '../src/features/portal/portal-services';
import { useCurrentSchoolYear } from '../src/features/portal/use-current-school-year';
import { RehearseServicesProvider } from '../src/features/rehearse/rehearse-services';
import { WithQuestionImages } from './question-images-provider';

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: 1 } },
});

export function WithRehearse({ children }: { children: ReactNode }) {
  const { http } = usePortalServices();
  const { orgId, schoolYear } = useCurrentSchoolYear();
  const schoolYearId = schoolYear?.id ?? null;
  const services = useMemo(() => ({ http, schoolYearId, RichText }), [http, schoolYearId]);
  // Every request of these pages needs a school: a teacher in none is told how to create or join one.
  if (orgId === null) return <NoSchoolSlot />;
  return (
    <QueryClientProvider client={queryClient}>
      <RehearseServicesProvider services={services}>
        <WithQuestionImages http={http}>{children}</WithQuestionImages>
      </RehearseServicesProvider>
    </QueryClientProvider>
  );
}
