/**
 * Hands the portal's services to features that have their own provider: reads the HTTP client and the
 * current user's school and school year from the portal and passes them to the feature.
 */
import { useMemo, type ReactNode } from 'react';
import { PapersServicesProvider } from '../src/features/papers/papers-services';
import { usePortalServices } from '../src/features/portal/portal-services';
import { useCurrentSchoolYear } from '../src/features/portal/use-current-school-year';

export function WithPapers({ children }: { children: ReactNode }) {
  const { http } = usePortalServices();
  const { orgId, schoolYear } = useCurrentSchoolYear();
  const schoolYearId = schoolYear?.id ?? null;
  const schoolYearName = schoolYear?.name ?? null;
  const services = useMemo(
    () => ({ http, user: { orgId, schoolYearId, schoolYearName } }),
    [http, orgId, schoolYearId, schoolYearName],
  );
  return <PapersServicesProvider services={services}>{children}</PapersServicesProvider>;
}
