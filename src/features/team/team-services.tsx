/**
 * What the team feature receives from its entry: the HTTP client, the session's user, a way to hand an
 * updated user back to the session (after creating, joining, switching or leaving a school) and to open
 * the portal's login box. The feature never builds an adapter or reads another feature.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { HttpClient } from '../../shared/adapters/http-client';
import type { CurrentUser } from '../../shared/contract/auth';

export type TeamServices = {
  http: HttpClient;
  user: CurrentUser | null;
  loggedIn: boolean;
  /** The user as the server now answers it; the session stores it (the top bar follows). */
  onUserChanged: (user: CurrentUser) => void;
  /** Opens the portal's login box on its password-login or register tab. */
  showLogin: (tab: 'password' | 'register') => void;
  /** Prefix of relative image paths such as the logo. */
  imageBaseUrl: string;
};

const TeamServicesContext = createContext<TeamServices | null>(null);

export function TeamServicesProvider({ services, children }: { services: TeamServices; children: ReactNode }) {
  return <TeamServicesContext.Provider value={services}>{children}</TeamServicesContext.Provider>;
}

export function useTeamServices(): TeamServices {
  const services = useContext(TeamServicesContext);
  if (!services) throw new Error('useTeamServices needs a TeamServicesProvider');
  return services;
}
