/**
 * What the papers feature receives from its entry: the HTTP client and the current user's school and
 * school year. Components read it through usePapersServices(); the feature never builds an adapter.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { HttpClient } from '../../shared/adapters/http-client';

export type PapersUser = {
  /** The default school (org), or null when the user belongs to none. */
  orgId: number | null;
  /** The default school year (class tree node of type 1), or null when none is chosen. */
  schoolYearId: number | null;
  schoolYearName: string | null;
};

export type PapersServices = {
  http: HttpClient;
  user: PapersUser;
  /** The answer sheet of a homework as it will print (another feature's view, composed by the entry). */
  renderAnswerSheetPreview?: (homeworkId: number) => ReactNode;
};

const PapersServicesContext = createContext<PapersServices | null>(null);

export function PapersServicesProvider({ services, children }: { services: PapersServices; children: ReactNode }) {
  return <PapersServicesContext.Provider value={services}>{children}</PapersServicesContext.Provider>;
}

export function usePapersServices(): PapersServices {
  const services = useContext(PapersServicesContext);
  if (!services) throw new Error('usePapersServices needs a PapersServicesProvider');
  return services;
}
