/**
 * What the analysis feature receives from its entry: the HTTP client and the user's current school year
 * (the default of the filters). Components read it through useAnalysisServices(); the feature never
 * builds an adapter.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { HttpClient } from '../../shared/adapters/http-client';

export type AnalysisServices = {
  http: HttpClient;
  schoolYearId: number | null;
  /** Saves a workbook; defaults to an anchor click on an object URL (tests pass a fake). */
  saveFile?: (blob: Blob, fileName: string) => void;
};

const AnalysisServicesContext = createContext<AnalysisServices | null>(null);

export function AnalysisServicesProvider({ services, children }: { services: AnalysisServices; children: ReactNode }) {
  return <AnalysisServicesContext.Provider value={services}>{children}</AnalysisServicesContext.Provider>;
}

export function useAnalysisServices(): AnalysisServices {
  const services = useContext(AnalysisServicesContext);
  if (!services) throw new Error('useAnalysisServices needs an AnalysisServicesProvider');
  return services;
}
