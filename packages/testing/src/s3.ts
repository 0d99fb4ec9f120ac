import { randomBytes } from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';

export interface S3Settings {
  endpoint: string;
  region: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * The S3Proxy deploy/local/s3proxy.sh starts (or reuses), with its fixed local credentials;
 * TEST_S3_ENDPOINT, TEST_S3_ACCESS_KEY_ID and TEST_S3_SECRET_ACCESS_KEY override it for other set-ups.
 */
export function localS3(): S3Settings {
  return {
    endpoint: process.env.TEST_S3_ENDPOINT ?? 'http://127.0.0.1:9000',
    region: 'us-east-1',
    forcePathStyle: true,
    accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID ?? 'corridor-local',
    secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY ?? 'corridor-local-secret',
  };
}

export function testS3Client(settings: S3Settings = localS3()): S3Client {
  const { accessKeyId, secretAccessKey, ...rest } = settings;
  return new S3Client({ ...rest, credentials: { accessKeyId, secretAccessKey } });
}

export interface TestBucket extends S3Settings {
  name: string;
  /** Deletes every object, then the bucket. */
  drop(): Promise<void>;
}

/** A fresh, empty bucket for one test file, so suites never see each other's objects. */
export async function createTestBucket(prefix: string): Promise<TestBucket> {
  const settings = localS3();
  // Bucket names: 3 to 63 lowercase letters, digits and hyphens.
  const slug = prefix
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40);
  const name = `test-${slug}-${randomBytes(4).toString('hex')}`.replace(/-+/g, '-');
  const client = testS3Client(settings);
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
  } finally {
    client.destroy();
  }
  return testBucketNamed(name, settings);
}

/** A bucket that exists already, by name (e.g. one a shared test platform made). */
export function testBucketNamed(name: string, settings: S3Settings = localS3()): TestBucket {
  return {
    name,
    ...settings,
    async drop() {
      const client = testS3Client(settings);
      try {
        let token: string | undefined;
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket: name, ContinuationToken: token }));
          await Promise.all(
            (page.Contents ?? []).map(({ Key }) => client.send(new DeleteObjectCommand({ Bucket: name, Key }))),
          );
          token = page.NextContinuationToken;
        } while (token);
        await client.send(new DeleteBucketCommand({ Bucket: name }));
      } finally {
        client.destroy();
      }
    },
  };
}
