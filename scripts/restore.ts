/**
 * `npm run restore <file>`: puts a backup written by `npm run backup` back into DATA_DIR. The server must
 * be stopped. What DATA_DIR held is first moved to DATA_DIR/before-restore/<time>/ (and moved back if
 * the archive cannot be read), then the stored files are written and the embedded database is loaded
 * from the archive's dump. On PostgreSQL only the files are restored; the database is pg_restore's.
 * With STORAGE=s3 the files are written to the bucket instead: an object of the same key is replaced,
 * other objects are left as they are (for a point in time, use the bucket's own versioning).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Config, loadConfig } from '../server/config';
import { type RestoredBackup, readBackup } from '../server/services/backup/backup-archive';
import { liveServer, objectStoreOf } from './backup';

export async function restore(
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'storage'>,
  file: string,
  now = new Date(),
): Promise<RestoredBackup & { setAside: string | null }> {
  if (!fs.existsSync(file)) throw new Error(`No such file: ${file}`);
  if (liveServer(config.dataDir)) throw new Error('The server is running on this DATA_DIR: stop it before restoring.');
  fs.mkdirSync(config.dataDir, { recursive: true });

  // Everything but earlier set-asides goes aside, so a failed restore can be undone.
  const present = fs.readdirSync(config.dataDir).filter((name) => name !== 'before-restore');
  const aside = path.join(config.dataDir, 'before-restore', now.toISOString().replace(/[:.]/g, '-'));
  if (present.length > 0) {
    fs.mkdirSync(aside, { recursive: true });
    for (const name of present) fs.renameSync(path.join(config.dataDir, name), path.join(aside, name));
  }
  const putBack = () => {
    for (const name of fs.readdirSync(config.dataDir)) {
      if (name !== 'before-restore') fs.rmSync(path.join(config.dataDir, name), { recursive: true, force: true });
    }
    for (const name of present) fs.renameSync(path.join(aside, name), path.join(config.dataDir, name));
  };

  const objects = (await objectStoreOf(config)) ?? undefined;
  try {
    const restored = await readBackup(file, config.dataDir, objects);
    if (!config.databaseUrl) {
      if (restored.manifest.database !== 'pglite' || !restored.databaseDump) {
        throw new Error('This backup holds no embedded database (it was taken on PostgreSQL): restore that with pg_restore.');
      }
      const client = await PGlite.create({ dataDir: path.join(config.dataDir, 'pgdata'), loadDataDir: restored.databaseDump });
      await client.query('select 1');
      await client.close();
    } else if (present.includes('pgdata')) {
      // Not ours to touch on PostgreSQL: an old embedded database stays where it was.
      fs.renameSync(path.join(aside, 'pgdata'), path.join(config.dataDir, 'pgdata'));
    }
    return { ...restored, setAside: present.length > 0 ? aside : null };
  } catch (error) {
    putBack();
    throw error;
  } finally {
    objects?.close();
  }
}

const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) {
  const file = process.argv[2];
  if (!file) {
    console.error('用法 / usage: npm run restore <backup file>');
    process.exit(1);
  }
  try {
    const config = loadConfig();
    const result = await restore(config, file);
    const to = config.storage.kind === 's3' ? `objects to bucket ${config.storage.bucket}` : 'stored files';
    console.log(`恢复完成 / restored ${result.files} ${to} from ${file} (taken ${result.manifest.createdAt}).`);
    if (result.setAside) console.log(`The previous contents of DATA_DIR are in ${result.setAside}.`);
    if (result.manifest.database === 'postgres')
      console.log('Restore the PostgreSQL database with pg_restore, see README.md ("Backups").');
  } catch (error) {
    console.error(`恢复失败 / restore failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
