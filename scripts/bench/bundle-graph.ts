/**
 * What a first view costs, read from a production build's Vite manifest (`vite build --manifest`): the
 * JavaScript and CSS an entry loads statically, plus, for a portal route, its lazily loaded page chunk
 * and that chunk's static imports. Sizes are exact (raw and gzip level 9), so budgets on them are tests.
 * Used by the budget test (tests/lint/bundle-budget.test.ts) and `npm run bench load`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export type ManifestChunk = {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
export type Manifest = Record<string, ManifestChunk>;

export type Asset = { file: string; raw: number; gz: number };
export type FirstView = { js: Asset[]; css: Asset[]; jsGz: number; cssGz: number; jsRaw: number; cssRaw: number };

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Builds the client with a manifest into `outDir` (a temporary folder of the caller's), as production
 * (a test runner's NODE_ENV=test would give React's development build); `precompress: false` skips the
 * .br/.gz copies when only sizes are wanted.
 */
export function buildWithManifest(outDir: string, { precompress = true } = {}): void {
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error', '--manifest', '--outDir', outDir],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production', PRECOMPRESS: precompress ? 'on' : 'off' },
    },
  );
}

export function readManifest(outDir: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The manifest key of an HTML entry ('teacher.html') or of the chunk built from a source path ending in `suffix`. */
export function findKey(manifest: Manifest, suffix: string): string {
  const key = Object.keys(manifest).find((k) => k === suffix || k.endsWith(suffix) || manifest[k]!.src?.endsWith(suffix));
  if (!key) throw new Error(`no chunk for ${suffix} in the manifest`);
  return key;
}

/** Keys of the chunks loaded when `keys` load: themselves and their static imports, transitively. */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...seen];
}

/** Dynamic imports reachable from `keys`' static closure (the lazily loaded pages of an entry). */
export function dynamicImportsOf(manifest: Manifest, keys: string[]): string[] {
  const closure = staticClosure(manifest, keys);
  return [...new Set(closure.flatMap((key) => manifest[key]?.dynamicImports ?? []))].filter((k) => !closure.includes(k));
}

const sizeCache = new Map<string, Asset>();
export function assetSize(outDir: string, file: string): Asset {
  const full = path.join(outDir, file);
  let asset = sizeCache.get(full);
  if (!asset) {
    const bytes = fs.readFileSync(full);
    asset = { file, raw: bytes.length, gz: zlib.gzipSync(bytes, { level: 9 }).length };
    sizeCache.set(full, asset);
  }
  return asset;
}

export function firstView(outDir: string, manifest: Manifest, keys: string[]): FirstView {
  const closure = staticClosure(manifest, keys);
  const jsFiles = [...new Set(closure.map((key) => manifest[key]!.file).filter((file) => /\.m?js$/.test(file)))];
  const cssFiles = [...new Set(closure.flatMap((key) => manifest[key]!.css ?? []))];
  const js = jsFiles.map((file) => assetSize(outDir, file)).sort((a, b) => b.gz - a.gz);
  const css = cssFiles.map((file) => assetSize(outDir, file)).sort((a, b) => b.gz - a.gz);
  const sum = (list: Asset[], field: 'raw' | 'gz') => list.reduce((total, asset) => total + asset[field], 0);
  return { js, css, jsGz: sum(js, 'gz'), cssGz: sum(css, 'gz'), jsRaw: sum(js, 'raw'), cssRaw: sum(css, 'raw') };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
