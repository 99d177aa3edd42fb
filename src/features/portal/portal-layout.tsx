import { useEffect, useRef, useState, type JSX } from 'react';
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
import { useLoginBox, type LoginTab } from './login-box.store';
import styles from './portal-layout.module.css';
import { usePortalServices } from './portal-services';
import { SiteFooter } from './site-footer';
import { TopBar } from './top-bar';
import { useSession } from './use-session';

type LoginBoxComponent = () => JSX.Element;
let loadedLoginBox: LoginBoxComponent | null = null;
const loadLoginBox = () => import('./login-box').then((module) => (loadedLoginBox = module.LoginBox));

/**
 * The login box and its forms (Semi's Form with every field type), fetched when the browser is idle after
 * a logged-out first view or when the box first opens. Semi's Modal must mount closed and then open, so a box
 * asked for before its code is in is closed, mounted, and opened again on the same tab.
 */
function DeferredLoginBox() {
  const [Box, setBox] = useState<LoginBoxComponent | null>(() => loadedLoginBox);
  const open = useLoginBox((state) => state.open);
  const { loggedIn } = useSession();
  const reopen = useRef<LoginTab | null>(null);

  useEffect(() => {
    if (Box) return;
    let cancelled = false;
    const load = () =>
      void loadLoginBox().then((component) => {
        if (cancelled) return;
        const state = useLoginBox.getState();
        if (state.open) {
          reopen.current = state.tab;
          state.close();
        }
        setBox(() => component);
      });
    if (open) {
      load();
      return () => {
        cancelled = true;
      };
    }
    // A logged-in teacher needs it only after logging out.
    if (loggedIn || typeof window.requestIdleCallback !== 'function') return;
    const id = window.requestIdleCallback(load, { timeout: 3000 });
    return () => {
      cancelled = true;
      window.cancelIdleCallback(id);
    };
  }, [Box, open, loggedIn]);

  useEffect(() => {
    if (!Box || reopen.current === null) return;
    const tab = reopen.current;
    reopen.current = null;
    useLoginBox.getState().show(tab);
  }, [Box]);

  return Box ? <Box /> : null;
}

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
      <DeferredLoginBox />
    </div>
  );
}
