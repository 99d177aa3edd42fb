/**
 * Hands the portal's services to the team feature: the HTTP client, the session's user (and a way to
 * store the user the server answers after a school change), the login box and the image base URL.
 */
import { useMemo, type ReactNode } from 'react';
import type { CurrentUser } from '../src/shared/contract/auth';
import { useLoginBox } from '../src/features/portal/login-box.store';
import { usePortalServices } from '../src/features/portal/portal-services';
import { useSession } from '../src/features/portal/use-session';
import { TeamServicesProvider } from '../src/features/team/team-services';

export function WithTeam({ children }: { children: ReactNode }) {
  const { http, session, imageBaseUrl } = usePortalServices();
  const { user, loggedIn } = useSession();
  const show = useLoginBox((state) => state.show);
  const services = useMemo(
    () => ({
      http,
      user,
      loggedIn,
      imageBaseUrl,
      onUserChanged: (updated: CurrentUser) => session.send({ type: 'user.updated', user: updated }),
      showLogin: (tab: 'password' | 'register') => show(tab),
    }),
    [http, user, loggedIn, imageBaseUrl, session, show],
  );
  return <TeamServicesProvider services={services}>{children}</TeamServicesProvider>;
}
