import { Toast } from '@douyinfe/semi-ui-19';
import { lazy, Suspense, useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import {
  FULL_VIEWPORT_PATHS,
  guardRedirect,
  pathIn,
  PATHS_WITHOUT_FOOTER,
  PATHS_WITHOUT_TOP_BAR,
  PORTAL_HOME,
  PUBLIC_PATHS,
  routeName,
} from '../../shared/lib/portal-routes';
import { PageLoading } from '../../shared/ui/page-loading';
import { loadedLoginBox, loadLoginBox, type LoginBoxComponent } from './login-box-loader';
import { useLoginBox } from './login-box.store';
import styles from './portal-layout.module.css';
import { useArrivedPortalServices, type PortalServices } from './portal-services';

/**
 * The login box and its forms (login-box-loader.ts), fetched when the browser is idle after a logged-out
 * first view, on a pointer over 注册/登录, or when the box first opens. An open asked for while the code
 * is on its way waits for it. Semi's Modal must mount closed and then open, so the box is mounted with
 * `ready` false and made ready on the next frame, whenever and in whatever order the open and the code
 * arrive. A failed fetch says so and closes the request; the next click tries again.
 */
/**
 * The top bar (Semi's Nav, Dropdown, Avatar and their icons) is fetched with the page it sits on, not with
 * the entry: the landing page (/) has none. A bar of its height holds its place meanwhile.
 */
const TopBar = lazy(() => import('./top-bar').then((module) => ({ default: module.TopBar })));
/** The footer reads the session (the school's filing number): it loads with the session runtime. */
const SiteFooter = lazy(() => import('./site-footer').then((module) => ({ default: module.SiteFooter })));

function DeferredLoginBox({ loggedIn, loadServices }: { loggedIn: boolean; loadServices: () => Promise<unknown> }) {
  const [Box, setBox] = useState<LoginBoxComponent | null>(loadedLoginBox);
  const [mountedBox, setMountedBox] = useState<LoginBoxComponent | null>(null);
  const open = useLoginBox((state) => state.open);

  useEffect(() => {
    if (Box) return;
    let cancelled = false;
    // The box logs in through the session runtime: both arrive before the box mounts.
    const load = () =>
      Promise.all([loadLoginBox(), loadServices()]).then(
        ([component]) => {
          if (!cancelled) setBox(() => component);
        },
        () => {
          if (cancelled || !useLoginBox.getState().open) return;
          useLoginBox.getState().close();
          Toast.error('登录框加载失败，请检查网络后重试');
        },
      );
    if (open) {
      void load();
      return () => {
        cancelled = true;
      };
    }
    // A logged-in teacher needs it only after logging out.
    if (loggedIn || typeof window.requestIdleCallback !== 'function') return;
    const id = window.requestIdleCallback(() => void load(), { timeout: 3000 });
    return () => {
      cancelled = true;
      window.cancelIdleCallback(id);
    };
  }, [Box, open, loggedIn, loadServices]);

  // Ready the frame after the box mounted (closed).
  useEffect(() => {
    if (!Box || mountedBox === Box) return;
    const frame = requestAnimationFrame(() => setMountedBox(() => Box));
    return () => cancelAnimationFrame(frame);
  }, [Box, mountedBox]);

  return Box ? <Box ready={mountedBox === Box} /> : null;
}

const noSession = () => () => undefined;

/** Re-renders on the session's changes (a login, logout or expiry) once the session runtime is there. */
function useSessionChanges(session: PortalServices['session'] | null): boolean {
  const subscribe = useCallback(
    (listener: () => void) => (session ? session.subscribe(listener).unsubscribe : noSession()),
    [session],
  );
  return useSyncExternalStore(subscribe, () => session?.getSnapshot().hasTag('authenticated') ?? false);
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
  // The frame runs without the session runtime (the landing page's first view does not load it).
  const { hasSessionCookies, services, load: loadServices } = useArrivedPortalServices();
  // Re-render on session changes so a login, logout or expiry re-runs the guard on the current page.
  const loggedIn = useSessionChanges(services?.session ?? null);
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

  const fullViewport = pathIn(pathname, FULL_VIEWPORT_PATHS);
  return (
    <div className={fullViewport ? `${styles.page} ${styles.fullViewport}` : styles.page}>
      {pathIn(pathname, PATHS_WITHOUT_TOP_BAR) ? null : (
        <Suspense fallback={<div className={styles.topBarSpace} />}>
          <TopBar />
        </Suspense>
      )}
      <div className={styles.content}>
        {/* A route's feature provider waits here for the session runtime. */}
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </div>
      {pathIn(pathname, PATHS_WITHOUT_FOOTER) ? null : (
        <Suspense fallback={null}>
          <SiteFooter compact={fullViewport} />
        </Suspense>
      )}
      <DeferredLoginBox loggedIn={loggedIn} loadServices={loadServices} />
    </div>
  );
}
