import {
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export interface ObjectStorageOptions {
  /** Where customer-kyb reaches the S3 API. */
  endpoint: string;
  /** Written into presigned URLs instead of `endpoint`: the address platforms reach. */
  publicEndpoint?: string;
  region: string;
  bucket: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface UploadRequest {
  key: string;
  contentType: string;
  contentLength: number;
  expiresInSeconds: number;
}

export interface PresignedUpload {
  /** A presigned PUT: the storage refuses another content type, another length, or a late request. */
  url: string;
  /** The headers the uploader must send with exactly these values (both are signed into the URL). */
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface StoredObject {
  sizeBytes: number;
  contentType: string | undefined;
}

/** The bucket holding customers' uploaded files (docs/decisions/0008-customer-api.md, "Files"). */
export class ObjectStorage {
  private readonly client: S3Client;
  /** Signs with the public host: SigV4 signs the Host header, so the URL cannot be rewritten after. */
  private readonly signer: S3Client;
  private readonly bucket: string;

  constructor(options: ObjectStorageOptions) {
    const common = {
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Else the SDK puts the CRC32 of an empty body into presigned PUT URLs, and S3 refuses the
      // real upload (S3Proxy happens not to check it).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      // A hung storage fails the call (and readiness) instead of holding it.
      requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
    } as const;
    this.client = new S3Client({ ...common, endpoint: options.endpoint });
    this.signer = new S3Client({ ...common, endpoint: options.publicEndpoint ?? options.endpoint });
    this.bucket = options.bucket;
  }

  async presignUpload(request: UploadRequest): Promise<PresignedUpload> {
    // X-Amz-Date has whole seconds: sign at a whole second so that expiresAt is the real deadline.
    const signingDate = new Date(Math.floor(Date.now() / 1000) * 1000);
    const url = await getSignedUrl(
      this.signer,
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: request.key,
        ContentType: request.contentType,
        ContentLength: request.contentLength,
      }),
      {
        expiresIn: request.expiresInSeconds,
        signingDate,
        // The presigner leaves content-type unsigned by default; both must be signed to be enforced.
        signableHeaders: new Set(['content-type', 'content-length']),
      },
    );
    return {
      url,
      headers: { 'content-type': request.contentType, 'content-length': String(request.contentLength) },
      expiresAt: new Date(signingDate.getTime() + request.expiresInSeconds * 1000),
    };
  }

  /** The stored object's size and type; undefined when nothing was uploaded under `key`. */
  async head(key: string): Promise<StoredObject | undefined> {
    try {
      const object = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { sizeBytes: object.ContentLength ?? 0, contentType: object.ContentType };
    } catch (error) {
      // A HEAD answer has no body: a missing object is just a 404 (so is a missing bucket; ping tells).
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
      throw error;
    }
  }

  /** Throws unless the bucket exists and these credentials may use it (readiness). */
  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
    this.signer.destroy();
  }
}
