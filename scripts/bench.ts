/** `npm run bench`: runs every benchmark in scripts/bench/ in turn; each prints its own numbers. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.join(import.meta.dirname, 'bench');
const only = process.argv[2];
const benches = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts') && (!only || file.includes(only)))
  .sort();

for (const file of benches) {
  console.log(`\n=== ${file}`);
  execFileSync(process.execPath, [path.join(import.meta.dirname, '../node_modules/tsx/dist/cli.mjs'), path.join(dir, file)], {
    stdio: 'inherit',
  });
}
