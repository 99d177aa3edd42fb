import { usePortalServices } from './portal-services';
import { useSession } from './use-session';

/** What the top bar's school-year picker shows when there is none. */
export const NO_SCHOOL_YEAR = '暂无默认学年';

/**
 * The default school and school year: the grade info stored on this browser when a school year was
 * chosen here, otherwise the default the server keeps for the user. The stored choice keeps only its id
 * fresh: when it is the server's default, the server's name is shown (升年级 renames a school year).
 */
export function useCurrentSchoolYear(): { orgId: number | null; schoolYear: { id: number; name: string } | null } {
  const { loadGradeInfo } = usePortalServices();
  const { user } = useSession();
  const info = user?.userGradeInfo;
  const orgId = info?.orgDefaultId ?? null;
  const stored = loadGradeInfo();
  if (stored) {
    const name = stored.id === info?.classDefaultId && info.classDefaultName ? info.classDefaultName : stored.name;
    return { orgId, schoolYear: { id: stored.id, name } };
  }
  const schoolYear =
    info?.classDefaultId != null ? { id: info.classDefaultId, name: info.classDefaultName ?? String(info.classDefaultId) } : null;
  return { orgId, schoolYear };
}
