/**
 * What the teacher entry hands the portal: the HTTP client, the running session actor, the school-year
 * machine (already provided with its actors) and a few adapter functions. Components read it through
 * usePortalServices(); none of them constructs an adapter.
 *
 * The teacher entry hands them over deferred (deferPortalServices): the session runtime (XState, zod, the
 * HTTP client and the machines) is a chunk of its own, fetched at once when the session cookies are there
 * and otherwise on the first need (the login box, a page that reads the services), so the landing page's
 * first view runs without it. A component that reads them before they arrive suspends to its nearest
 * Suspense boundary.
 */
import { createContext, use, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { SchoolYearMachine } from '../../machines/school-year.machine';
import type { SessionMachine } from '../../machines/session.machine';
import type { HttpClient } from '../../shared/adapters/http-client';
import type { RealtimeEvents } from '../../shared/adapters/lazy-realtime-socket';

export type PortalServices = {
  http: HttpClient;
  session: ActorRefFrom<SessionMachine>;
  schoolYearMachine: SchoolYearMachine;
  /** The spec's guard test: both the access-token cookie and the user cookie are present. */
  hasSessionCookies: () => boolean;
  /** The school year stored as grade info when one was chosen on this browser. */
  loadGradeInfo: () => { id: number; name: string } | null;
  /** Prefix of relative image paths such as the avatar. */
  imageBaseUrl: string;
  /** The site's filing number (备案号) from GET /api/config, shown where the user's school sets none. */
  filingNumber?: string;
  /** The tab's live socket, in the logged-in user's school room (null where there is none, e.g. tests). */
  socket: RealtimeEvents | null;
};

/** The services loaded on first need; the guard's cookie test is there from the start. */
export type DeferredPortalServices = {
  deferred: true;
  hasSessionCookies: () => boolean;
  /** The services if they have arrived. */
  current: () => PortalServices | null;
  /** Fetches them (once; a failed fetch is forgotten, so the next need tries again). */
  load: () => Promise<PortalServices>;
  subscribe: (listener: () => void) => () => void;
};

export function deferPortalServices(
  load: () => Promise<PortalServices>,
  hasSessionCookies: () => boolean,
): DeferredPortalServices {
  let current: PortalServices | null = null;
  let pending: Promise<PortalServices> | null = null;
  const listeners = new Set<() => void>();
  return {
    deferred: true,
    hasSessionCookies,
    current: () => current,
    load() {
      pending ??= load().then(
        (services) => {
          current = services;
          // React's use() reads a settled promise's status and value, and then never suspends on it again.
          Object.assign(pending!, { status: 'fulfilled', value: services });
          listeners.forEach((listener) => listener());
          return services;
        },
        (error: unknown) => {
          pending = null;
          throw error;
        },
      );
      return pending;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

type Source = PortalServices | DeferredPortalServices;
const isDeferred = (source: Source): source is DeferredPortalServices => 'deferred' in source;

const PortalServicesContext = createContext<Source | null>(null);

export function PortalServicesProvider({ services, children }: { services: Source; children: ReactNode }) {
  return <PortalServicesContext.Provider value={services}>{children}</PortalServicesContext.Provider>;
}

function useSource(): Source {
  const source = useContext(PortalServicesContext);
  if (!source) throw new Error('usePortalServices needs a PortalServicesProvider');
  return source;
}

/** The services; suspends while deferred ones are on their way. */
export function usePortalServices(): PortalServices {
  const source = useSource();
  if (!isDeferred(source)) return source;
  // use() on every render, never only on some (React refuses a use() that suspended and then went away);
  // once the services are there, the promise is settled and use() answers at once.
  return use(source.load());
}

const noSubscription = () => () => undefined;

/**
 * For the portal's frame, which runs before them: the guard's cookie test, the services if they have
 * arrived (null meanwhile, re-rendering when they do; never fetching them) and a way to fetch them.
 */
export function useArrivedPortalServices(): {
  hasSessionCookies: () => boolean;
  services: PortalServices | null;
  load: () => Promise<unknown>;
} {
  const source = useSource();
  const deferred = isDeferred(source) ? source : null;
  const services = useSyncExternalStore(
    deferred ? deferred.subscribe : noSubscription,
    deferred ? deferred.current : () => source as PortalServices,
  );
  return {
    hasSessionCookies: source.hasSessionCookies,
    services,
    load: deferred ? deferred.load : () => Promise.resolve(source),
  };
}

/** An image path as stored (relative) turned into a URL; absolute URLs pass through. */
export function imageUrl(base: string, relative: string | null | undefined): string | undefined {
  if (!relative) return undefined;
  if (/^(https?:|data:|blob:|\/)/.test(relative)) return relative;
  return `${base.replace(/\/?$/, '/')}${relative}`;
}
