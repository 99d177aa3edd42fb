/**
 * The server of a bench, in its own process: `script` (default server/main.ts, the server as `npm start`
 * runs it) through tsx on a free port with `env` added to this process's environment, answered once
 * /api/health does. The process has an IPC channel, for a script that reports to its bench
 * (largescreen-server.ts). Shared by `npm run bench load` and `npm run bench largescreen`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export type BenchServer = {
  /** http://127.0.0.1:<port> */
  base: string;
  proc: ChildProcess;
  /** SIGTERM, then waits for the exit (15 s at the most). */
  stop: () => Promise<void>;
};

export async function startServer(options: {
  env: Record<string, string>;
  /** From the repository's root. */
  script?: string;
  /** The server's standard output (its log): shown, or not. Its errors are always shown. */
  stdout?: 'inherit' | 'ignore';
  /** BENCH_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops. */
  profile?: boolean;
  timeoutMs?: number;
}): Promise<BenchServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = fork(path.join(root, options.script ?? 'server/main.ts'), [], {
    cwd: root,
    execPath: process.execPath,
    execArgv:
      options.profile && process.env.BENCH_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`, '--import', 'tsx']
        : [tsx],
    env: { ...process.env, ...options.env, PORT: String(port) },
    stdio: ['ignore', options.stdout ?? 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`the server exited (${proc.exitCode ?? proc.signalCode}) before it answered`);
    }
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { base, proc, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error('the server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
