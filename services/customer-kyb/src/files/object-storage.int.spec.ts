import { randomBytes } from 'node:crypto';
import { createTestBucket, type TestBucket } from '@corridor/testing';
import { ObjectStorage, type PresignedUpload } from './object-storage.js';

// What the storage itself enforces on a presigned upload (docs/decisions/0008-customer-api.md,
// "Files"), proved against the real S3Proxy that deploy/local/infra.sh runs.

const pdf = Buffer.from('%PDF-1.7\n% a small but real-looking file\n');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const newKey = () => `files/${randomBytes(8).toString('hex')}`;

async function put(
  upload: PresignedUpload,
  body: RequestInit['body'],
  headers: Record<string, string> = upload.headers,
) {
  const response = await fetch(upload.url, { method: 'PUT', headers, body, duplex: 'half' });
  return { status: response.status, body: await response.text() };
}

describe('ObjectStorage against S3Proxy', () => {
  let bucket: TestBucket;
  let storage: ObjectStorage;

  beforeAll(async () => {
    bucket = await createTestBucket('object-storage');
    storage = new ObjectStorage({ ...bucket, bucket: bucket.name });
  });

  afterAll(async () => {
    storage?.close();
    await bucket?.drop();
  });

  const presign = (key: string, expiresInSeconds = 60) =>
    storage.presignUpload({ key, contentType: 'application/pdf', contentLength: pdf.length, expiresInSeconds });

  it('signs content-type and content-length into the URL and names them as the headers to send', async () => {
    const before = Date.now();
    const upload = await presign(newKey(), 900);
    const url = new URL(upload.url);
    expect(url.origin).toBe(bucket.endpoint);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    // No checksum of an empty body, which real S3 would hold the upload to.
    expect([...url.searchParams.keys()].filter((name) => name.startsWith('x-amz-checksum'))).toEqual([]);
    expect(upload.headers).toEqual({ 'content-type': 'application/pdf', 'content-length': String(pdf.length) });
    expect(upload.expiresAt.getTime()).toBeGreaterThan(before + 899_000);
    expect(upload.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 900_000);
  });

  it('stores an upload sent with the signed headers; head reads its size and type', async () => {
    const key = newKey();
    expect(await put(await presign(key), pdf)).toEqual({ status: 200, body: '' });
    expect(await storage.head(key)).toEqual({ sizeBytes: pdf.length, contentType: 'application/pdf' });
  });

  it('refuses another content type', async () => {
    const key = newKey();
    const upload = await presign(key);
    const refused = await put(upload, pdf, { ...upload.headers, 'content-type': 'image/png' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('SignatureDoesNotMatch');
    expect(await storage.head(key)).toBeUndefined();
  });

  it('refuses a body longer or shorter than the signed length', async () => {
    const key = newKey();
    const upload = await presign(key);
    const { 'content-type': contentType } = upload.headers;
    for (const body of [Buffer.concat([pdf, Buffer.from('x')]), pdf.subarray(1)]) {
      // fetch sends the body's real length, whatever the caller says.
      const refused = await put(upload, body, { 'content-type': contentType ?? '' });
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('SignatureDoesNotMatch');
    }
    expect(await storage.head(key)).toBeUndefined();
  });

  it('refuses a body sent without a length (chunked)', async () => {
    const key = newKey();
    const upload = await presign(key);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(pdf);
        controller.close();
      },
    });
    const refused = await put(upload, stream, { 'content-type': 'application/pdf' });
    expect(refused.status).toBe(403);
    expect(await storage.head(key)).toBeUndefined();
  });

  it('refuses a URL once it has expired', async () => {
    const key = newKey();
    const upload = await presign(key, 2);
    expect((await put(upload, pdf)).status).toBe(200);
    await sleep(upload.expiresAt.getTime() - Date.now() + 1_000);
    const refused = await put(upload, pdf);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('AccessDenied');
  });

  it('writes the public endpoint into the URL and signs for that host', async () => {
    const endpoint = new URL(bucket.endpoint);
    const publicEndpoint = `http://localhost:${endpoint.port}`;
    const behindAProxy = new ObjectStorage({ ...bucket, bucket: bucket.name, publicEndpoint });
    try {
      const key = newKey();
      const upload = await behindAProxy.presignUpload({
        key,
        contentType: 'image/png',
        contentLength: 3,
        expiresInSeconds: 60,
      });
      expect(new URL(upload.url).origin).toBe(publicEndpoint);
      expect((await put(upload, Buffer.from([1, 2, 3]))).status).toBe(200);
      expect(await storage.head(key)).toEqual({ sizeBytes: 3, contentType: 'image/png' });
    } finally {
      behindAProxy.close();
    }
  });

  it('head of a key never uploaded is undefined', async () => {
    expect(await storage.head(newKey())).toBeUndefined();
  });

  it('head and ping throw when the storage refuses the credentials', async () => {
    const wrong = new ObjectStorage({ ...bucket, bucket: bucket.name, secretAccessKey: 'not-the-secret' });
    try {
      await expect(wrong.head(newKey())).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      await expect(wrong.ping()).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    } finally {
      wrong.close();
    }
  });

  it('ping answers for the bucket, and fails for a bucket that does not exist', async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
    const missing = new ObjectStorage({ ...bucket, bucket: `${bucket.name}-missing` });
    try {
      await expect(missing.ping()).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    } finally {
      missing.close();
    }
  });
});
