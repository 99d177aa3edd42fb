import { useSelector } from '@xstate/react';
import type { LoginRequest } from '../../machines/session.machine';
import { usePortalServices } from './portal-services';

/** The session as components need it, and the two things they may ask of it. */
export function useSession() {
  const { session } = usePortalServices();
  const user = useSelector(session, (snapshot) => snapshot.context.session?.user ?? null);
  const loggedIn = useSelector(session, (snapshot) => snapshot.hasTag('authenticated'));
  const loggingIn = useSelector(session, (snapshot) => snapshot.matches('loggingIn'));
  const error = useSelector(session, (snapshot) => snapshot.context.error);
  return {
    user,
    loggedIn,
    loggingIn,
    error,
    login: (request: LoginRequest) => session.send({ type: 'session.login', request }),
    logout: () => session.send({ type: 'session.logout' }),
  };
}
