/**
 * Route-level code splitting: `lazyPage(() => import('…/edit-page'), 'EditPage')` is a component that
 * loads its module on first render and shows the Chinese loading state meanwhile. A module that fails to
 * load (a deploy replaced its chunk, the network dropped) throws to the route's error element
 * (RouteErrorPage), which offers to reload.
 */
import { lazy, Suspense, type ComponentProps, type ComponentType, type JSX } from 'react';
import { PageLoading } from './page-loading';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, whatever its props
type AnyComponent = ComponentType<any>;

export function lazyPage<M extends Record<K, AnyComponent>, K extends keyof M & string>(
  load: () => Promise<M>,
  exportName: K,
): (props: ComponentProps<M[K]>) => JSX.Element {
  const Lazy = lazy(async () => ({ default: (await load())[exportName] }));
  function LazyPage(props: ComponentProps<M[K]>) {
    return (
      <Suspense fallback={<PageLoading />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyPage.displayName = `lazyPage(${exportName})`;
  return LazyPage;
}
