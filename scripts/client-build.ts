/**
 * Builds the client when dist/client is missing or older than any of its sources, so `npm start` on a
 * fresh clone (or after a pull) always serves what the code says.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(root, 'dist/client/.build-stamp');
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

export function buildClientIfStale(): void {
  if (clientIsStale()) buildClient();
}

export function buildClient(): void {
  console.log('Building the client (vite build)…');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  fs.writeFileSync(STAMP, new Date().toISOString());
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) buildClient();
