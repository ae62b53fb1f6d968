import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

/**
 * A fake of the S3 API calls S3Storage makes, over real HTTP, as AWS S3, R2 and MinIO answer
 * them: PutObject; the multipart calls lib-storage makes (CreateMultipartUpload, UploadPart,
 * CompleteMultipartUpload, AbortMultipartUpload); GetObject (with Range and the `response-*`
 * overrides presigned URLs carry); HeadObject; DeleteObject; DeleteObjects; ListObjectsV2 with
 * continuation tokens. Path-style addressing (`/bucket/key`), and virtual-host style when the
 * host name starts with a known bucket.
 *
 * Every request must be signed with AWS Signature Version 4, verified here independently of the
 * SDK: in the Authorization header (checked against the body's SHA-256 when one is given) or in
 * the query of a presigned URL (X-Amz-Date + X-Amz-Expires must not have passed). Failures
 * answer with S3's XML errors: 403 SignatureDoesNotMatch, AccessDenied, InvalidAccessKeyId,
 * RequestTimeTooSkewed; 404 NoSuchKey, NoSuchBucket, NoSuchUpload; 400 for malformed requests.
 */

export interface FakeS3Options {
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
  buckets: string[];
  /** Most keys one ListObjectsV2 page returns (S3: 1000); small in tests so paging happens. */
  pageSize?: number;
  /** Smallest part but the last in a multipart upload (S3: 5 MiB). */
  minPartSize?: number;
  /** The fake's clock, for expiry and clock-skew checks. */
  now?: () => number;
}

export interface StoredObject {
  body: Buffer;
  contentType: string;
  /** Quoted, as S3 sends it. */
  etag: string;
  lastModified: Date;
}

export interface S3Call {
  operation: string;
  bucket: string;
  key: string | undefined;
  status: number;
  /** Signed in the query (a presigned URL) rather than the Authorization header. */
  presigned: boolean;
  /** Code of the XML error answered, if any. */
  error?: string;
  /** DeleteObjects: how many keys the request named. */
  keyCount?: number;
}

export interface FakeS3 {
  /** The endpoint, e.g. http://127.0.0.1:PORT. */
  url: string;
  region: string;
  calls: S3Call[];
  /** The environment that points the app's S3 storage at one of this fake's buckets. */
  appEnv(bucket: string): Record<string, string>;
  /** A bucket's objects by key (read and seed them directly). */
  bucket(name: string): Map<string, StoredObject>;
  /** Seeds an object without a request. */
  putObject(bucket: string, key: string, body: Buffer | string, contentType?: string): void;
  /** Multipart uploads started and neither completed nor aborted. */
  openUploads(): number;
  /** DeleteObjects reports these keys as not deleted (AccessDenied), as S3 does per key. */
  refuseDeleteOf(predicate: ((key: string) => boolean) | undefined): void;
  /** The next request of this operation answers with this error instead (e.g. 500 InternalError). */
  failNext(operation: string, status: number, code: string): void;
  close(): Promise<void>;
}

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
}

const maxPresignSeconds = 7 * 24 * 3600;
const allowedSkewMs = 15 * 60 * 1000;

interface MultipartUpload {
  bucket: string;
  key: string;
  contentType: string;
  parts: Map<number, { body: Buffer; etag: string }>;
}

interface ParsedRequest {
  method: string;
  rawPath: string;
  /** Decoded query pairs, in order. */
  query: [string, string][];
  params: Map<string, string>;
  headers: IncomingHttpHeaders;
  body: Buffer;
  bucket: string | undefined;
  key: string | undefined;
}

export async function startFakeS3(options: FakeS3Options): Promise<FakeS3> {
  const region = options.region ?? 'us-east-1';
  const pageSize = options.pageSize ?? 1000;
  const minPartSize = options.minPartSize ?? 5 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const buckets = new Map(options.buckets.map((name) => [name, new Map<string, StoredObject>()]));
  const uploads = new Map<string, MultipartUpload>();
  const calls: S3Call[] = [];
  const failures: { operation: string; status: number; code: string }[] = [];
  let refuseDelete: ((key: string) => boolean) | undefined;

  const server = createServer((request, response) => {
    void handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let operation = 'Unknown';
    let parsed: ParsedRequest | undefined;
    let presigned = false;
    try {
      parsed = parse(request, Buffer.concat(chunks));
      operation = operationOf(parsed);
      presigned = parsed.params.has('X-Amz-Signature');
      authenticate(parsed);
      const failure = failures.findIndex((f) => f.operation === operation);
      if (failure >= 0) {
        const [f] = failures.splice(failure, 1);
        throw new S3Error(f!.status, f!.code, 'Scripted failure.');
      }
      const answer = perform(operation, parsed);
      calls.push({
        operation,
        bucket: parsed.bucket ?? '',
        key: parsed.key,
        status: answer.status,
        presigned,
        ...(answer.keyCount !== undefined ? { keyCount: answer.keyCount } : {}),
      });
      response.writeHead(answer.status, {
        'x-amz-request-id': requestId(),
        ...answer.headers,
        ...(answer.body !== undefined ? { 'content-length': String(answer.body.length) } : {}),
      });
      response.end(request.method === 'HEAD' ? undefined : answer.body);
    } catch (error) {
      const s3Error =
        error instanceof S3Error
          ? error
          : new S3Error(500, 'InternalError', `We encountered an internal error: ${String(error)}`);
      calls.push({
        operation,
        bucket: parsed?.bucket ?? '',
        key: parsed?.key,
        status: s3Error.status,
        presigned,
        error: s3Error.code,
      });
      const body = Buffer.from(
        xml(
          'Error',
          `<Code>${s3Error.code}</Code><Message>${escapeXml(s3Error.message)}</Message>` +
            Object.entries(s3Error.extra)
              .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
              .join('') +
            `<RequestId>${requestId()}</RequestId>`,
        ),
      );
      response.writeHead(s3Error.status, {
        'content-type': 'application/xml',
        'x-amz-request-id': requestId(),
        ...(request.method === 'HEAD' ? {} : { 'content-length': String(body.length) }),
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    }
  }

  function parse(request: IncomingMessage, body: Buffer): ParsedRequest {
    const url = request.url ?? '/';
    const questionMark = url.indexOf('?');
    const rawPath = questionMark < 0 ? url : url.slice(0, questionMark);
    const rawQuery = questionMark < 0 ? '' : url.slice(questionMark + 1);
    const query: [string, string][] = [];
    for (const pair of rawQuery.split('&').filter(Boolean)) {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      const value = equals < 0 ? '' : pair.slice(equals + 1);
      query.push([decode(name), decode(value)]);
    }
    const params = new Map<string, string>();
    for (const [name, value] of query) {
      if (params.has(name))
        throw new S3Error(400, 'InvalidArgument', `Query parameter ${name} is repeated.`);
      params.set(name, value);
    }
    // Virtual-host style: the bucket is the host name's first label.
    const hostName = (request.headers.host ?? '').replace(/:\d+$/, '');
    const hostBucket = [...buckets.keys()].find((name) => hostName.startsWith(`${name}.`));
    const path = decode(rawPath);
    let bucket: string | undefined;
    let key: string | undefined;
    if (hostBucket) {
      bucket = hostBucket;
      key = path.slice(1) || undefined;
    } else {
      const slash = path.indexOf('/', 1);
      bucket = (slash < 0 ? path.slice(1) : path.slice(1, slash)) || undefined;
      key = slash < 0 ? undefined : path.slice(slash + 1) || undefined;
    }
    return {
      method: request.method ?? 'GET',
      rawPath,
      query,
      params,
      headers: request.headers,
      body,
      bucket,
      key,
    };
  }

  function authenticate(request: ParsedRequest) {
    const { params, headers } = request;
    const presigned = params.has('X-Amz-Signature') || params.has('X-Amz-Credential');
    let credential: string;
    let signedHeaders: string;
    let signature: string;
    let amzDate: string;
    let payloadHash: string;
    if (presigned) {
      if (params.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256')
        throw new S3Error(
          400,
          'AuthorizationQueryParametersError',
          'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"',
        );
      credential = params.get('X-Amz-Credential') ?? '';
      signedHeaders = params.get('X-Amz-SignedHeaders') ?? '';
      signature = params.get('X-Amz-Signature') ?? '';
      amzDate = params.get('X-Amz-Date') ?? '';
      payloadHash = params.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
      const expires = Number(params.get('X-Amz-Expires'));
      if (!Number.isInteger(expires) || expires < 1 || expires > maxPresignSeconds)
        throw new S3Error(
          400,
          'AuthorizationQueryParametersError',
          'X-Amz-Expires must be between 1 and 604800 seconds',
        );
      const signedAt = parseAmzDate(amzDate);
      if (now() > signedAt + expires * 1000)
        throw new S3Error(403, 'AccessDenied', 'Request has expired', {
          Expires: new Date(signedAt + expires * 1000).toISOString(),
          ServerTime: new Date(now()).toISOString(),
        });
      if (signedAt > now() + allowedSkewMs)
        throw new S3Error(403, 'AccessDenied', 'Request is not valid yet');
    } else {
      const authorization = headers.authorization;
      if (!authorization) throw new S3Error(403, 'AccessDenied', 'Access Denied');
      const match =
        /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]+)$/.exec(
          authorization,
        );
      if (!match)
        throw new S3Error(
          400,
          'AuthorizationHeaderMalformed',
          'The authorization header is malformed.',
        );
      [, credential, signedHeaders, signature] = match as unknown as [
        string,
        string,
        string,
        string,
      ];
      amzDate = String(headers['x-amz-date'] ?? '');
      const contentSha = headers['x-amz-content-sha256'];
      if (typeof contentSha !== 'string')
        throw new S3Error(
          400,
          'InvalidRequest',
          'Missing required header for this request: x-amz-content-sha256',
        );
      payloadHash = contentSha;
      if (Math.abs(parseAmzDate(amzDate) - now()) > allowedSkewMs)
        throw new S3Error(
          403,
          'RequestTimeTooSkewed',
          'The difference between the request time and the current time is too large.',
        );
    }

    const [accessKeyId, date, scopeRegion, service, terminator] = credential.split('/');
    if (accessKeyId !== options.accessKeyId)
      throw new S3Error(
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
      );
    if (
      date !== amzDate.slice(0, 8) ||
      scopeRegion !== region ||
      service !== 's3' ||
      terminator !== 'aws4_request'
    )
      throw new S3Error(
        400,
        'AuthorizationHeaderMalformed',
        `The authorization credential scope is wrong; expected ${amzDate.slice(0, 8)}/${region}/s3/aws4_request`,
      );
    const headerNames = signedHeaders.split(';');
    if (!headerNames.includes('host'))
      throw new S3Error(403, 'AccessDenied', 'The host header must be signed.');

    const canonicalQuery = request.query
      .filter(([name]) => name !== 'X-Amz-Signature')
      .map(([name, value]) => [escapeUri(name), escapeUri(value)] as const)
      .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
      .map(([name, value]) => `${name}=${value}`)
      .join('&');
    const canonicalHeaders = headerNames
      .map((name) => {
        const value = headers[name];
        const text = Array.isArray(value) ? value.join(',') : (value ?? '');
        return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
      })
      .join('');
    const canonicalRequest = [
      request.method,
      request.rawPath,
      canonicalQuery,
      canonicalHeaders,
      signedHeaders,
      payloadHash,
    ].join('\n');
    const scope = `${date}/${region}/s3/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join(
      '\n',
    );
    let signingKey = hmac(`AWS4${options.secretAccessKey}`, date);
    for (const part of [region, 's3', 'aws4_request']) signingKey = hmac(signingKey, part);
    const expected = Buffer.from(hmac(signingKey, stringToSign).toString('hex'));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new S3Error(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      );

    // The body must be the one that was signed, or be declared unsigned.
    if (/^[0-9a-f]{64}$/.test(payloadHash)) {
      if (sha256Hex(request.body) !== payloadHash)
        throw new S3Error(
          400,
          'XAmzContentSHA256Mismatch',
          "The provided 'x-amz-content-sha256' header does not match what was computed.",
        );
    } else if (payloadHash === 'STREAMING-UNSIGNED-PAYLOAD-TRAILER') {
      request.body = decodeAwsChunked(request);
    } else if (payloadHash !== 'UNSIGNED-PAYLOAD') {
      throw new S3Error(501, 'NotImplemented', `Payload signing ${payloadHash} is not supported.`);
    }
  }

  function operationOf({ method, params, bucket, key }: ParsedRequest): string {
    if (!bucket) return 'ListBuckets';
    if (!key) {
      if (method === 'GET' && params.get('list-type') === '2') return 'ListObjectsV2';
      if (method === 'POST' && params.has('delete')) return 'DeleteObjects';
      if (method === 'HEAD') return 'HeadBucket';
      return `${method} bucket`;
    }
    if (method === 'PUT') return params.has('uploadId') ? 'UploadPart' : 'PutObject';
    if (method === 'POST' && params.has('uploads')) return 'CreateMultipartUpload';
    if (method === 'POST' && params.has('uploadId')) return 'CompleteMultipartUpload';
    if (method === 'DELETE')
      return params.has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject';
    if (method === 'GET') return 'GetObject';
    if (method === 'HEAD') return 'HeadObject';
    return `${method} object`;
  }

  interface Answer {
    status: number;
    headers?: Record<string, string>;
    body?: Buffer;
    keyCount?: number;
  }

  function perform(operation: string, request: ParsedRequest): Answer {
    const objects = buckets.get(request.bucket ?? '');
    if (!objects)
      throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', {
        BucketName: request.bucket ?? '',
      });
    const bucket = request.bucket!;
    const key = request.key ?? '';
    const { params, headers } = request;
    switch (operation) {
      case 'HeadBucket':
        return { status: 200 };
      case 'PutObject': {
        if (headers['x-amz-copy-source'])
          throw new S3Error(501, 'NotImplemented', 'CopyObject is not supported by the fake.');
        const stored = store(
          request.body,
          String(headers['content-type'] ?? 'binary/octet-stream'),
        );
        objects.set(key, stored);
        return { status: 200, headers: { etag: stored.etag } };
      }
      case 'CreateMultipartUpload': {
        const uploadId = randomBytes(16).toString('base64url');
        uploads.set(uploadId, {
          bucket,
          key,
          contentType: String(headers['content-type'] ?? 'binary/octet-stream'),
          parts: new Map(),
        });
        return xmlAnswer(
          200,
          'InitiateMultipartUploadResult',
          `<Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId>`,
        );
      }
      case 'UploadPart': {
        const upload = uploadOf(params.get('uploadId'), bucket, key);
        const partNumber = Number(params.get('partNumber'));
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000)
          throw new S3Error(
            400,
            'InvalidArgument',
            'Part number must be an integer between 1 and 10000, inclusive',
          );
        const etag = `"${md5(request.body).toString('hex')}"`;
        upload.parts.set(partNumber, { body: request.body, etag });
        return { status: 200, headers: { etag } };
      }
      case 'CompleteMultipartUpload': {
        const uploadId = params.get('uploadId');
        const upload = uploadOf(uploadId, bucket, key);
        const listed = elements(request.body.toString('utf8'), 'Part').map((part) => ({
          number: Number(elements(part, 'PartNumber')[0]),
          etag: elements(part, 'ETag')[0] ?? '',
        }));
        if (listed.length === 0)
          throw new S3Error(
            400,
            'MalformedXML',
            'The XML you provided was not well-formed or did not validate against our published schema.',
          );
        const bodies: Buffer[] = [];
        const digests: Buffer[] = [];
        listed.forEach((part, index) => {
          if (index > 0 && part.number <= listed[index - 1]!.number)
            throw new S3Error(
              400,
              'InvalidPartOrder',
              'The list of parts was not in ascending order.',
            );
          const stored = upload.parts.get(part.number);
          if (!stored || stored.etag !== normalizeEtag(part.etag))
            throw new S3Error(
              400,
              'InvalidPart',
              'One or more of the specified parts could not be found.',
            );
          if (index < listed.length - 1 && stored.body.length < minPartSize)
            throw new S3Error(
              400,
              'EntityTooSmall',
              'Your proposed upload is smaller than the minimum allowed object size.',
            );
          bodies.push(stored.body);
          digests.push(Buffer.from(stored.etag.slice(1, -1), 'hex'));
        });
        uploads.delete(uploadId!);
        const stored = store(Buffer.concat(bodies), upload.contentType);
        stored.etag = `"${md5(Buffer.concat(digests)).toString('hex')}-${listed.length}"`;
        objects.set(key, stored);
        return xmlAnswer(
          200,
          'CompleteMultipartUploadResult',
          `<Location>http://127.0.0.1:${port}/${escapeXml(bucket)}/${escapeXml(key)}</Location>` +
            `<Bucket>${escapeXml(bucket)}</Bucket><Key>${escapeXml(key)}</Key><ETag>${escapeXml(stored.etag)}</ETag>`,
        );
      }
      case 'AbortMultipartUpload': {
        uploadOf(params.get('uploadId'), bucket, key);
        uploads.delete(params.get('uploadId')!);
        return { status: 204 };
      }
      case 'GetObject':
      case 'HeadObject': {
        const object = objects.get(key);
        if (!object)
          throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
        const overrides: Record<string, string> = {};
        for (const name of [
          'content-type',
          'content-language',
          'expires',
          'cache-control',
          'content-disposition',
          'content-encoding',
        ]) {
          const value = params.get(`response-${name}`);
          if (value !== undefined) overrides[name] = value;
        }
        const common = {
          'content-type': object.contentType,
          etag: object.etag,
          'last-modified': object.lastModified.toUTCString(),
          'accept-ranges': 'bytes',
          ...overrides,
        };
        const range = headers.range;
        if (range && operation === 'GetObject') {
          const slice = byteRange(range, object.body.length);
          return {
            status: 206,
            headers: {
              ...common,
              'content-range': `bytes ${slice.start}-${slice.end}/${object.body.length}`,
            },
            body: object.body.subarray(slice.start, slice.end + 1),
          };
        }
        if (operation === 'HeadObject')
          return {
            status: 200,
            headers: { ...common, 'content-length': String(object.body.length) },
          };
        return { status: 200, headers: common, body: object.body };
      }
      case 'DeleteObject':
        objects.delete(key);
        return { status: 204 };
      case 'DeleteObjects': {
        checkContentIntegrity(request);
        const text = request.body.toString('utf8');
        const keys = elements(text, 'Object').map((object) => elements(object, 'Key')[0] ?? '');
        if (keys.length === 0 || keys.length > 1000)
          throw new S3Error(
            400,
            'MalformedXML',
            'The XML you provided was not well-formed or did not validate against our published schema.',
          );
        const quiet = elements(text, 'Quiet')[0] === 'true';
        let result = '';
        for (const deleted of keys) {
          if (refuseDelete?.(deleted)) {
            result += `<Error><Key>${escapeXml(deleted)}</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`;
            continue;
          }
          objects.delete(deleted);
          if (!quiet) result += `<Deleted><Key>${escapeXml(deleted)}</Key></Deleted>`;
        }
        return { ...xmlAnswer(200, 'DeleteResult', result), keyCount: keys.length };
      }
      case 'ListObjectsV2': {
        if (params.get('delimiter'))
          throw new S3Error(501, 'NotImplemented', 'The fake lists without a delimiter only.');
        const prefix = params.get('prefix') ?? '';
        const token = params.get('continuation-token');
        const startAfter = params.get('start-after') ?? '';
        const requested = Number(params.get('max-keys') ?? 1000);
        if (!Number.isInteger(requested) || requested < 0)
          throw new S3Error(
            400,
            'InvalidArgument',
            'Provided max-keys not an integer or within integer range',
          );
        const maxKeys = Math.min(requested, pageSize);
        let after = startAfter;
        if (token !== undefined) {
          after = Buffer.from(token, 'base64url').toString('utf8');
          if (!after || Buffer.from(after).toString('base64url') !== token)
            throw new S3Error(
              400,
              'InvalidArgument',
              'The continuation token provided is incorrect',
            );
        }
        const matching = [...objects.keys()]
          .filter((name) => name.startsWith(prefix) && name > after)
          .sort();
        const page = matching.slice(0, maxKeys);
        const truncated = matching.length > page.length;
        const urlEncoded = params.get('encoding-type') === 'url';
        const name = (value: string) => escapeXml(urlEncoded ? escapeUri(value) : value);
        const contents = page
          .map((listed) => {
            const object = objects.get(listed)!;
            return `<Contents><Key>${name(listed)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>${escapeXml(object.etag)}</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
          })
          .join('');
        return xmlAnswer(
          200,
          'ListBucketResult',
          `<Name>${escapeXml(bucket)}</Name><Prefix>${name(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>` +
            `<MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
            (urlEncoded ? '<EncodingType>url</EncodingType>' : '') +
            (token !== undefined
              ? `<ContinuationToken>${escapeXml(token)}</ContinuationToken>`
              : '') +
            (truncated
              ? `<NextContinuationToken>${Buffer.from(page.at(-1)!).toString('base64url')}</NextContinuationToken>`
              : '') +
            contents,
        );
      }
      default:
        throw new S3Error(501, 'NotImplemented', `${operation} is not supported by the fake.`);
    }
  }

  function uploadOf(uploadId: string | undefined, bucket: string, key: string): MultipartUpload {
    const upload = uploadId ? uploads.get(uploadId) : undefined;
    if (!upload || upload.bucket !== bucket || upload.key !== key)
      throw new S3Error(
        404,
        'NoSuchUpload',
        'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
        { UploadId: uploadId ?? '' },
      );
    return upload;
  }

  function store(body: Buffer, contentType: string): StoredObject {
    return {
      body,
      contentType,
      etag: `"${md5(body).toString('hex')}"`,
      lastModified: new Date(Math.floor(now() / 1000) * 1000),
    };
  }

  return {
    url: `http://127.0.0.1:${port}`,
    region,
    calls,
    appEnv(bucket) {
      return {
        STORAGE: 's3',
        S3_BUCKET: bucket,
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: options.accessKeyId,
        S3_SECRET_ACCESS_KEY: options.secretAccessKey,
      };
    },
    bucket(name) {
      const objects = buckets.get(name);
      if (!objects) throw new Error(`no bucket ${name} in the fake`);
      return objects;
    },
    putObject(bucket, key, body, contentType = 'application/octet-stream') {
      const objects = buckets.get(bucket);
      if (!objects) throw new Error(`no bucket ${bucket} in the fake`);
      objects.set(key, store(Buffer.from(body), contentType));
    },
    openUploads: () => uploads.size,
    refuseDeleteOf(predicate) {
      refuseDelete = predicate;
    },
    failNext(operation, status, code) {
      failures.push({ operation, status, code });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** S3 requires Content-MD5 or a checksum header on DeleteObjects, and checks it. */
function checkContentIntegrity({ headers, body }: ParsedRequest) {
  const contentMd5 = headers['content-md5'];
  const checksum = headers['x-amz-checksum-crc32'];
  if (typeof contentMd5 === 'string') {
    if (md5(body).toString('base64') !== contentMd5)
      throw new S3Error(
        400,
        'BadDigest',
        'The Content-MD5 you specified did not match what we received.',
      );
    return;
  }
  if (typeof checksum === 'string') {
    const computed = Buffer.alloc(4);
    computed.writeUInt32BE(crc32(body));
    if (computed.toString('base64') !== checksum)
      throw new S3Error(
        400,
        'BadDigest',
        'The CRC32 you specified did not match the calculated checksum.',
      );
    return;
  }
  throw new S3Error(
    400,
    'InvalidRequest',
    'Missing required header for this request: Content-MD5 OR x-amz-checksum-*',
  );
}

/** `Content-Encoding: aws-chunked` bodies: hex size lines, then trailers (checksums) after 0. */
function decodeAwsChunked({ body, headers }: ParsedRequest): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset);
    const size =
      lineEnd < 0 ? NaN : parseInt(body.subarray(offset, lineEnd).toString().split(';')[0]!, 16);
    if (!Number.isInteger(size))
      throw new S3Error(400, 'IncompleteBody', 'The aws-chunked body is malformed.');
    offset = lineEnd + 2;
    if (size === 0) break;
    parts.push(body.subarray(offset, offset + size));
    offset += size + 2;
  }
  const decoded = Buffer.concat(parts);
  const declared = headers['x-amz-decoded-content-length'];
  if (declared !== undefined && Number(declared) !== decoded.length)
    throw new S3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified.');
  return decoded;
}

function byteRange(header: string, size: number): { start: number; end: number } {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  let start = NaN;
  let end = size - 1;
  if (match && match[1]) {
    start = Number(match[1]);
    if (match[2]) end = Math.min(Number(match[2]), size - 1);
  } else if (match && match[2]) {
    start = Math.max(0, size - Number(match[2]));
  }
  if (!Number.isInteger(start) || start >= size || start > end)
    throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable', {
      RangeRequested: header,
      ActualObjectSize: String(size),
    });
  return { start, end };
}

function parseAmzDate(value: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match)
    throw new S3Error(
      403,
      'AccessDenied',
      'AWS authentication requires a valid Date or x-amz-date header',
    );
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d!, h, mi, s);
}

/** The contents of each `<name>...</name>` element, with XML entities decoded. */
function elements(text: string, name: string): string[] {
  const pattern = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'g');
  return [...text.matchAll(pattern)].map((match) => unescapeXml(match[1]!));
}

function normalizeEtag(etag: string): string {
  return etag.startsWith('"') ? etag : `"${etag}"`;
}

function xml(root: string, inner: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${inner}</${root}>`;
}

function xmlAnswer(status: number, root: string, inner: string) {
  return {
    status,
    headers: { 'content-type': 'application/xml' },
    body: Buffer.from(xml(root, inner)),
  };
}

function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function unescapeXml(value: string): string {
  return value.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[entity]!;
  });
}

/** SigV4's URI encoding: RFC 3986 unreserved characters stay, everything else is %XX. */
function escapeUri(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new S3Error(400, 'InvalidURI', "Couldn't parse the specified URI.");
  }
}

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function md5(data: Buffer): Buffer {
  return createHash('md5').update(data).digest();
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function requestId(): string {
  return randomBytes(8).toString('hex').toUpperCase();
}
