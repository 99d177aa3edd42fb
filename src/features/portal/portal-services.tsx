/**
 * What the teacher entry hands the portal: the HTTP client, the running session actor, the school-year
 * machine (already provided with its actors) and a few adapter functions. Components read it through
 * usePortalServices(); none of them constructs an adapter.
 */
import { createContext, useContext, type ReactNode } from 'react';
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

const PortalServicesContext = createContext<PortalServices | null>(null);

export function PortalServicesProvider({ services, children }: { services: PortalServices; children: ReactNode }) {
  return <PortalServicesContext.Provider value={services}>{children}</PortalServicesContext.Provider>;
}

export function usePortalServices(): PortalServices {
  const services = useContext(PortalServicesContext);
  if (!services) throw new Error('usePortalServices needs a PortalServicesProvider');
  return services;
}

/** An image path as stored (relative) turned into a URL; absolute URLs pass through. */
export function imageUrl(base: string, relative: string | null | undefined): string | undefined {
  if (!relative) return undefined;
  if (/^(https?:|data:|blob:|\/)/.test(relative)) return relative;
  return `${base.replace(/\/?$/, '/')}${relative}`;
}
