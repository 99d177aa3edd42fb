import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { guardRedirect, pathIn, PATHS_WITHOUT_FOOTER, PATHS_WITHOUT_TOP_BAR, routeName } from '../../shared/lib/portal-routes';
import { useLoginBox } from './login-box.store';
import styles from './portal-layout.module.css';
import { usePortalServices } from './portal-services';
import { SiteFooter } from './site-footer';
import { TopBar } from './top-bar';
import { useSession } from './use-session';

// The login box and its forms (Semi's Form with every field type) are fetched when the browser is idle
// after the first view, or when the box first opens, whichever comes first.
const loadLoginBox = () => import('./login-box');
const LoginBox = lazy(() => loadLoginBox().then((module) => ({ default: module.LoginBox })));

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
  const loginOpen = useLoginBox((state) => state.open);
  const [loginUsed, setLoginUsed] = useState(loginOpen);
  if (loginOpen && !loginUsed) setLoginUsed(true);

  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
  }, [pathname]);

  useEffect(() => {
    if (typeof window.requestIdleCallback !== 'function') return;
    const id = window.requestIdleCallback(() => void loadLoginBox(), { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }, []);

  useEffect(() => {
    const name = routeName(pathname);
    document.title = name && pathname !== '/' ? `${name} - 智慧作业` : '智慧作业';
  }, [pathname]);

  const redirect = guardRedirect(pathname, hasSessionCookies());
  if (redirect)
    return <Navigate to={redirect} replace state={redirect === '/' ? { from: pathname + location.search } : undefined} />;

  return (
    <div className={styles.page}>
      {pathIn(pathname, PATHS_WITHOUT_TOP_BAR) ? null : <TopBar />}
      <div className={styles.content}>
        <Outlet />
      </div>
      {pathIn(pathname, PATHS_WITHOUT_FOOTER) ? null : <SiteFooter />}
      {loginUsed ? (
        <Suspense fallback={null}>
          <LoginBox />
        </Suspense>
      ) : null}
    </div>
  );
}
