import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unzipSync } from 'fflate';
import sharp from 'sharp';

/**
 * What the GPU-service fakes (replicate-api.ts, fal-api.ts) share: a JSON HTTP server on port 0
 * with a route table, an auth check, every request recorded, and scripted failures (a status with
 * the provider's error body, 429 with Retry-After, a malformed JSON answer, or no answer at all).
 * Plus two tiny servers for tests: one hosting files (the training zip) and one receiving webhooks.
 */

export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when empty or not JSON). */
  body: unknown;
  rawBody: string;
}

export interface RouteRequest extends RecordedRequest {
  /** The route pattern's match on the path. */
  match: RegExpExecArray;
}

export interface Answer {
  status: number;
  /** Sent as JSON; a string is sent as it is (e.g. deliberately broken JSON), bytes too (a file). */
  body: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  pattern: RegExp;
  /** Routes that need no credentials (a JWKS, a hosted file). */
  public?: boolean;
  handle(request: RouteRequest): Answer | Promise<Answer>;
}

export interface ScriptedFailure {
  /** Only the next request whose `METHOD /path` matches fails (default: the next request). */
  match?: string | RegExp;
  /** The status to answer with the provider's error body (default 500). */
  status?: number;
  /** The error body's detail (default: the provider's usual text for the status). */
  detail?: string;
  /** With 429: the Retry-After header. */
  retryAfter?: number | string;
  /** Answer 200 with a truncated JSON body instead. */
  malformed?: boolean;
  /** Never answer (until the fake closes): for client timeouts. */
  hang?: boolean;
  /**
   * The request takes effect first and only its answer fails: a gateway error, or an answer lost
   * on the way back, after the provider had acted (a retry then acts a second time).
   */
  afterHandling?: boolean;
}

export interface JsonServerOptions {
  authorized(headers: IncomingHttpHeaders): boolean;
  /** The provider's error body for a status and detail. */
  error(status: number, detail?: string): Answer;
  routes: Route[];
}

export interface JsonServer {
  url: string;
  requests: RecordedRequest[];
  failNext(failure?: ScriptedFailure): void;
  close(): Promise<void>;
}

export async function startJsonServer(options: JsonServerOptions): Promise<JsonServer> {
  const requests: RecordedRequest[] = [];
  const failures: ScriptedFailure[] = [];

  function send(response: ServerResponse, answer: Answer) {
    const text =
      typeof answer.body === 'string' || answer.body instanceof Uint8Array
        ? answer.body
        : JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      'content-type': 'application/json',
      ...answer.headers,
    });
    response.end(text);
  }

  function takeFailure(method: string, path: string): ScriptedFailure | undefined {
    const line = `${method} ${path}`;
    const index = failures.findIndex(
      (failure) =>
        failure.match === undefined ||
        (typeof failure.match === 'string'
          ? line.includes(failure.match)
          : failure.match.test(line)),
    );
    return index === -1 ? undefined : failures.splice(index, 1)[0];
  }

  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://fake');
      const method = request.method ?? 'GET';
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      let unparsable = false;
      if (rawBody) {
        try {
          body = JSON.parse(rawBody);
        } catch {
          unparsable = true;
        }
      }
      const recorded: RecordedRequest = {
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        body,
        rawBody,
      };
      const candidates = options.routes
        .map((route) => ({ route, match: route.pattern.exec(url.pathname) }))
        .filter((candidate) => candidate.match);
      const found = candidates.find((candidate) => candidate.route.method === method);
      requests.push(recorded);
      if (!found?.route.public && !options.authorized(request.headers))
        return send(response, options.error(401));
      const failure = takeFailure(method, url.pathname);
      if (failure?.afterHandling && found && !unparsable)
        await found.route.handle({ ...recorded, match: found.match! });
      if (failure?.hang) return; // the socket stays open until close()
      if (failure?.malformed)
        return send(response, { status: 200, body: '{"id": "tr', headers: {} });
      if (failure) {
        const status = failure.status ?? 500;
        const answer = options.error(status, failure.detail);
        return send(response, {
          ...answer,
          headers: {
            ...answer.headers,
            ...(failure.retryAfter !== undefined
              ? { 'retry-after': String(failure.retryAfter) }
              : {}),
          },
        });
      }
      if (!found)
        return send(response, options.error(candidates.length > 0 ? 405 : 404, undefined));
      if (unparsable) return send(response, options.error(400, 'The request body is not JSON'));
      return send(response, await found.route.handle({ ...recorded, match: found.match! }));
    } catch (error) {
      send(response, options.error(500, String(error)));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    failNext: (failure = {}) => {
      failures.push(failure);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

const jpegs = new Map<string, Promise<Buffer>>();

/**
 * A real JPEG, as the image models answer (a diagonal colour gradient, or black: what a safety
 * checker leaves of a flagged image). Made once per size and kind.
 */
export function fakeJpeg(width = 768, height = 1024, kind: 'gradient' | 'black' = 'gradient') {
  const cacheKey = `${width}x${height}:${kind}`;
  let made = jpegs.get(cacheKey);
  if (!made) {
    const pixels = Buffer.alloc(width * height * 3);
    if (kind === 'gradient')
      for (let y = 0; y < height; y += 1)
        for (let x = 0; x < width; x += 1) {
          const at = (y * width + x) * 3;
          pixels[at] = Math.round((x / width) * 255);
          pixels[at + 1] = Math.round((y / height) * 255);
          pixels[at + 2] = 160;
        }
    made = sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    jpegs.set(cacheKey, made);
  }
  return made;
}

/**
 * Downloads a training zip the way the services do: any HTTP failure or a body that is not a zip
 * archive is a reason the training fails (an expired signed URL answers 403).
 */
export async function downloadZip(url: string): Promise<{ ok: true } | { ok: false; why: string }> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    return { ok: false, why: `could not download ${url}: ${String(error)}` };
  }
  if (!response.ok) return { ok: false, why: `download failed with HTTP ${response.status}` };
  try {
    unzipSync(new Uint8Array(await response.arrayBuffer()));
    return { ok: true };
  } catch {
    return { ok: false, why: 'not a zip file' };
  }
}

export interface HostedFile {
  status?: number;
  body: Uint8Array | string;
  contentType?: string;
}

/** Serves files at paths the test chooses (the signed training zip and its failure modes). */
export interface FileHost {
  url: string;
  serve(path: string, file: HostedFile): string;
  /** How many times each path was fetched. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startFileHost(): Promise<FileHost> {
  const files = new Map<string, HostedFile>();
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const file = files.get(path);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      return response.end('not found');
    }
    response.writeHead(file.status ?? 200, {
      'content-type': file.contentType ?? 'application/zip',
    });
    response.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    serve: (path, file) => {
      files.set(path, file);
      return `${url}${path}`;
    },
    hits,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export interface ReceivedWebhook {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
}

/** Receives webhook deliveries as the app's route would, keeping the raw bytes. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://receiver');
    received.push({
      headers: { ...request.headers },
      query: Object.fromEntries(url.searchParams),
      rawBody: Buffer.concat(chunks),
    });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"received":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
