/**
 * Starts a worker thread on a module of this code base, whether it runs from TypeScript (tsx: the
 * server, scripts, vitest) or compiled. Node 20 does not apply the parent's module hooks (tsx's) to a
 * worker's entry file, so a `.ts` entry is loaded through tsx's own `tsImport` from a tiny bootstrap.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

let tsxApi: string | undefined;

/** The file URL of tsx's ESM API, from tsx's own package exports. */
function tsxApiUrl(): string {
  if (!tsxApi) {
    const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
    const exportsMap = JSON.parse(readFileSync(packageJson, 'utf8')).exports as Record<string, { import: { default: string } }>;
    const entry = exportsMap['./esm/api']?.import.default;
    if (!entry) throw new Error('tsx does not export ./esm/api');
    tsxApi = pathToFileURL(path.join(path.dirname(packageJson), entry)).href;
  }
  return tsxApi;
}

export function startModuleWorker(entry: URL, workerData?: unknown): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData });
  const api = JSON.stringify(tsxApiUrl());
  const file = JSON.stringify(entry.href);
  return new Worker(`import(${api}).then((tsx) => tsx.tsImport(${file}, ${file}))`, { eval: true, execArgv: [], workerData });
}
