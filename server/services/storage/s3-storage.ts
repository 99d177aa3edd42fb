/**
 * The object-storage backend of FileStorage (STORAGE=s3): every key is an object in one bucket of an
 * S3-compatible service, under an optional prefix, so several instances share the stored files without a
 * shared disk. A PUT replaces an object whole, so writes are atomic as the interface asks; a missing
 * object is read as ENOENT like a missing local file. Checked against s3rver 3.7 (the tests start one).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '../../config';
import { checkStorageKey, type FileStorage, missingFile } from './file-storage';

export type S3FileStorage = FileStorage & {
  /** Rejects with a clear message when the bucket cannot be reached with these settings. */
  check(): Promise<void>;
  close(): void;
};

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

/** The content type a stored file is served with, by its extension. */
export function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

export function createS3FileStorage(config: S3StorageConfig): S3FileStorage {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
    // Checksums only where the API requires them: many S3-compatible services (and s3rver) do not
    // know the newer CRC headers the SDK would otherwise send with every PUT.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = config.bucket;
  const objectKey = (key: string) => `${config.prefix}${checkStorageKey(key).join('/')}`;

  return {
    kind: 's3',
    async write(key, data) {
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: data, ContentType: contentTypeOf(key) }));
    },
    async read(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        if (!answer.Body) throw missingFile(key);
        return Buffer.from(await answer.Body.transformToByteArray());
      } catch (error) {
        if (isMissing(error)) throw missingFile(key);
        throw error;
      }
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async *list(prefix) {
      const start = prefix === '' ? '' : `${checkStorageKey(prefix.replace(/\/+$/, '')).join('/')}/`;
      for await (const page of paginateListObjectsV2({ client }, { Bucket, Prefix: `${config.prefix}${start}` })) {
        for (const object of page.Contents ?? []) {
          if (object.Key && !object.Key.endsWith('/')) yield object.Key.slice(config.prefix.length);
        }
      }
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
        const reason =
          status === 404
            ? '存储桶不存在 / the bucket does not exist'
            : status === 403 || status === 401
              ? '无权访问该存储桶，请检查 S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY / access denied, check the keys'
              : `${(error as Error).name}: ${(error as Error).message}`;
        throw new Error(
          `无法访问对象存储 / cannot reach the object storage: bucket "${Bucket}"` +
            `${config.endpoint ? ` at ${config.endpoint}` : ''} (${config.region}): ${reason}`,
          { cause: error },
        );
      }
    },
    close: () => client.destroy(),
  };
}
