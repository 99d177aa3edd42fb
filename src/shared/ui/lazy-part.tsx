/**
 * Parts of a page that show later (a tab opened later, a dialog, a side sheet), out of the page's first
 * view: `lazyPart(() => import('…/set-maker'), 'SetMaker')` is a component that loads its module on first
 * render. A tab's content is rendered when the tab opens (the tabs render lazily); a dialog stays mounted
 * hidden as before (Semi's Modal in a portal opens dependably when `visible` changes, not always when it
 * mounts visible), so its code arrives right after the page shows. Meanwhile it shows nothing (a hidden
 * dialog) or, given `loading`, the Chinese loading state with that label (a tab's content). A module that
 * fails to load throws to the route's error element, which offers to reload, as a page does. Apart from
 * lazy-page.tsx, which the portal's entry carries.
 */
import { lazy, Suspense, type ComponentProps, type ComponentType, type JSX } from 'react';
import { PageLoading } from './page-loading';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, whatever its props
type AnyComponent = ComponentType<any>;

export function lazyPart<M extends Record<K, AnyComponent>, K extends keyof M & string>(
  load: () => Promise<M>,
  exportName: K,
  loading?: string,
): (props: ComponentProps<M[K]>) => JSX.Element {
  const Lazy = lazy(async () => ({ default: (await load())[exportName] }));
  const fallback = loading === undefined ? null : <PageLoading label={loading} />;
  function LazyPart(props: ComponentProps<M[K]>) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  LazyPart.displayName = `lazyPart(${exportName})`;
  return LazyPart;
}
