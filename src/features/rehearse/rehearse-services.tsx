/**
 * What the re-practice feature receives from its entry: the HTTP client, the user's current school year
 * (the filters' default) and the question bank's rich-text renderer (KaTeX), which belongs to another
 * feature and so is handed in rather than imported.
 */
import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { HttpClient } from '../../shared/adapters/http-client';

export type RehearseServices = {
  http: HttpClient;
  schoolYearId: number | null;
  RichText: ComponentType<{ text: string; className?: string }>;
};

const RehearseServicesContext = createContext<RehearseServices | null>(null);

export function RehearseServicesProvider({ services, children }: { services: RehearseServices; children: ReactNode }) {
  return <RehearseServicesContext.Provider value={services}>{children}</RehearseServicesContext.Provider>;
}

export function useRehearseServices(): RehearseServices {
  const services = useContext(RehearseServicesContext);
  if (!services) throw new Error('useRehearseServices needs a RehearseServicesProvider');
  return services;
}
