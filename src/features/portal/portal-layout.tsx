import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import {
  guardRedirect,
  pathIn,
  PATHS_WITHOUT_FOOTER,
  PATHS_WITHOUT_TOP_BAR,
  PORTAL_HOME,
  PUBLIC_PATHS,
  routeName,
} from '../../shared/lib/portal-routes';
import { LoginBox } from './login-box';
import styles from './portal-layout.module.css';
import { usePortalServices } from './portal-services';
import { SiteFooter } from './site-footer';
import { TopBar } from './top-bar';
import { useSession } from './use-session';

/**
 * Where a visitor who has just logged in on a public page goes: the private page that sent them there
 * to log in (kept in the navigation state by the guard), or the portal home. Only a path of this site
 * that the guard would let a logged-in visitor stay on is taken, never an address of another origin.
 */
export function afterLoginPath(from: unknown): string {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.includes('\\')) return PORTAL_HOME;
  const pathname = from.split(/[?#]/)[0] ?? '';
  if (pathIn(pathname, PUBLIC_PATHS)) return PORTAL_HOME;
  return from;
}

/**
 * The frame of every portal page: the navigation guard (spec §2), scroll to top on each navigation,
 * the page title, the top bar and footer where the spec shows them, and the login box.
 */
export function PortalLayout() {
  const { hasSessionCookies } = usePortalServices();
  // Re-render on session changes so a logout or expiry re-runs the guard on the current page.
  useSession();
  const location = useLocation();
  const { pathname } = location;

  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
  }, [pathname]);

  useEffect(() => {
    const name = routeName(pathname);
    document.title = name && pathname !== '/' ? `${name} - 智慧作业` : '智慧作业';
  }, [pathname]);

  const redirect = guardRedirect(pathname, hasSessionCookies());
  // The guard's way in: sent to / with the page asked for, and back to that page once logged in.
  if (redirect === PORTAL_HOME) {
    return <Navigate to={afterLoginPath((location.state as { from?: unknown } | null)?.from)} replace />;
  }
  if (redirect)
    return <Navigate to={redirect} replace state={redirect === '/' ? { from: pathname + location.search } : undefined} />;

  return (
    <div className={styles.page}>
      {pathIn(pathname, PATHS_WITHOUT_TOP_BAR) ? null : <TopBar />}
      <div className={styles.content}>
        <Outlet />
      </div>
      {pathIn(pathname, PATHS_WITHOUT_FOOTER) ? null : <SiteFooter />}
      <LoginBox />
    </div>
  );
}
