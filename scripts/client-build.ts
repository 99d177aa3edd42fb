/**
 * Builds the client when dist/client is missing or older than any of its sources, so `npm start` on a
 * fresh clone (or after a pull) always serves what the code says.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// The same variable the server reads: a test run builds into its own folder and serves that.
const outDir = path.resolve(root, process.env.CLIENT_DIR || 'dist/client');
const STAMP = path.join(outDir, '.build-stamp');
const SOURCES = ['entries', 'src', 'public', 'vite.config.ts', 'package-lock.json', 'tsconfig.json'];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function clientIsStale(): boolean {
  if (!fs.existsSync(STAMP)) return true;
  const built = fs.statSync(STAMP).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > built);
}

const LOCK = `${outDir}.build-lock`;
const LOCK_STALE_MS = 5 * 60_000;

/** Several test runs may start at once: one builds, the others wait for it and then reuse its output. */
function withBuildLock(work: () => void): void {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS || Date.now() > deadline) fs.rmSync(LOCK, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    work();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

export function buildClientIfStale(): void {
  if (!clientIsStale()) return;
  withBuildLock(() => {
    if (clientIsStale()) buildClient();
  });
}

export function buildClient(): void {
  console.log('Building the client (vite build)…');
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', outDir],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  fs.writeFileSync(STAMP, new Date().toISOString());
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) buildClient();
