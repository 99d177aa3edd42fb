/**
 * `npm run dev`: the API server (restarting on change) and the Vite dev server with hot reload, which
 * proxies /api and socket.io to it. Open the URL Vite prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apiPort = process.env.PORT ?? '8080';
const children: ChildProcess[] = [];

function run(name: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    console.log(`[dev] ${name} exited (${code ?? 'signal'}); stopping.`);
    stop();
  });
  children.push(child);
}

function stop() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = 0;
}

process.once('SIGINT', stop);
process.once('SIGTERM', stop);

run('server', [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'server/main.ts'], {
  PORT: apiPort,
});
run('vite', [path.join(root, 'node_modules/vite/bin/vite.js')], { VITE_API_TARGET: `http://127.0.0.1:${apiPort}` });
