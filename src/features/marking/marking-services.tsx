/**
 * What the marking feature receives from its entry: the HTTP client, a way to listen to the school's live
 * events (the entry owns the socket; the feature only subscribes), and who is signed in. Components read
 * it through useMarkingServices(); the feature never builds an adapter.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { HttpClient } from '../../shared/adapters/http-client';

/** Listens to one socket.io event of the user's school; returns the function that stops listening. */
export type SubscribeRealtime = (event: string, handler: (payload: unknown) => void) => () => void;

export type MarkingServices = {
  http: HttpClient;
  subscribe: SubscribeRealtime;
  /** The signed-in teacher, to tell "my" marking apart from colleagues'; null while unknown. */
  userId: number | null;
};

const MarkingServicesContext = createContext<MarkingServices | null>(null);

export function MarkingServicesProvider({ services, children }: { services: MarkingServices; children: ReactNode }) {
  return <MarkingServicesContext.Provider value={services}>{children}</MarkingServicesContext.Provider>;
}

export function useMarkingServices(): MarkingServices {
  const services = useContext(MarkingServicesContext);
  if (!services) throw new Error('useMarkingServices needs a MarkingServicesProvider');
  return services;
}
