/**
 * Semi's empty-state illustrations (semi-illustrations), each a chunk of its own fetched the first time it
 * is shown, like an image: together they were a 15 KiB gz chunk in the first view of every page with an
 * empty state (tests/lint/bundle-budget.test.ts), though a page shows one of them at most, and only
 * when it has nothing to list. A box of the illustration's size holds its place meanwhile.
 */
import { lazy, Suspense, type ComponentType, type CSSProperties, type JSX } from 'react';

type SvgComponent = ComponentType<{ style?: CSSProperties; className?: string }>;
type Loader = () => Promise<{ default: SvgComponent }>;

const LOADERS = {
  Construction: () => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationConstruction'),
  NoAccess: () => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationNoAccess'),
  NoContent: () => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationNoContent'),
  NotFound: () => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationNotFound'),
  Success: () => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationSuccess'),
} satisfies Record<string, Loader>;

export type IllustrationName = keyof typeof LOADERS;

const LAZY = {} as Record<IllustrationName, SvgComponent>;
for (const name of Object.keys(LOADERS) as IllustrationName[]) LAZY[name] = lazy(LOADERS[name]);

/** Semi's default size for an illustration (its SVG is 200 × 200). */
const DEFAULT_SIZE = 200;

export function Illustration({ name, style }: { name: IllustrationName; style?: CSSProperties }): JSX.Element {
  const Svg = LAZY[name];
  const placeholder = (
    <span
      aria-hidden="true"
      style={{ display: 'inline-block', width: style?.width ?? DEFAULT_SIZE, height: style?.height ?? DEFAULT_SIZE }}
    />
  );
  return (
    <Suspense fallback={placeholder}>
      <Svg style={style} />
    </Suspense>
  );
}
