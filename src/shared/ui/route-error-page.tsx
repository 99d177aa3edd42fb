/**
 * The error element of every portal route: instead of react-router's English default screen, the
 * Chinese PageError with a way on. The portal's top bar stays, as the error element renders inside the
 * layout.
 */
import { useRouteError } from 'react-router-dom';
import { PageError } from './page-error';

/** A route's `errorElement`. */
export function RouteErrorPage() {
  const error = useRouteError();
  return <PageError error={error} />;
}
