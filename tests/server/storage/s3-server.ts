/**
 * An S3-compatible server for the tests: s3rver on a random port over a temporary folder, with one
 * bucket, and the storage configuration that points at it (what STORAGE=s3 and the S3_* variables
 * would give).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../../../server/config';

export type TestS3 = { config: S3StorageConfig; stop: () => Promise<void> };

export async function startS3(bucket = 'smart-homework'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    config: {
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      region: 'us-east-1',
      // s3rver's fixed development keys.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      prefix: '',
    },
    stop: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
