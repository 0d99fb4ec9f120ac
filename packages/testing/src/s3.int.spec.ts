import { HeadBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createTestBucket, localS3, testS3Client } from './s3.js';

describe('test buckets on the local S3Proxy', () => {
  const client = testS3Client();
  afterAll(() => client.destroy());

  const exists = (Bucket: string) =>
    client.send(new HeadBucketCommand({ Bucket })).then(
      () => true,
      (error: { $metadata?: { httpStatusCode?: number } }) => {
        if (error.$metadata?.httpStatusCode === 404) return false;
        throw error;
      },
    );

  it('creates a fresh bucket with the local settings, and drop() empties and deletes it', async () => {
    const bucket = await createTestBucket('Testing S3_helpers');
    expect(bucket.name).toMatch(/^test-testing-s3-helpers-[0-9a-f]{8}$/);
    expect(bucket).toMatchObject(localS3());
    expect(await exists(bucket.name)).toBe(true);

    for (const Key of ['a', 'b/c', 'b/d']) {
      await client.send(new PutObjectCommand({ Bucket: bucket.name, Key, Body: Key }));
    }
    await bucket.drop();
    expect(await exists(bucket.name)).toBe(false);
  });

  it('never hands out the same bucket twice', async () => {
    const [one, two] = await Promise.all([createTestBucket('twice'), createTestBucket('twice')]);
    expect(one.name).not.toBe(two.name);
    await Promise.all([one.drop(), two.drop()]);
  });
});
