/**
 * Parts of a page that show later (a tab opened later, a dialog, a side sheet), loaded when first shown:
 * `lazyPart(() => import('…/set-maker'), 'SetMaker')` is a component that loads its module on first
 * render. Render it once it is opened (as `{open ? <SetMaker visible … /> : null}`, or in a tab that
 * renders lazily), so that its code is not in the page's first view. Meanwhile it shows nothing (a dialog
 * appears when it is ready) or, given `loading`, the Chinese loading state with that label (a tab's
 * content). A module that fails to load throws to the route's error element, which offers to reload, as
 * a page does. Apart from lazy-page.tsx, which the portal's entry carries.
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
