import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiRequest, isApiError } from './api-client.ts';

// fetch is this module's edge to the network, so it is what the tests replace.
function stubFetch(...responses: Array<Response | ((init: RequestInit) => Promise<Response>)>) {
  const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
    const next = responses.shift();
    if (!next) throw new Error('unexpected extra request');
    return typeof next === 'function' ? next(init) : next;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('apiRequest', () => {
  it('sends JSON with the session cookie and returns the parsed answer', async () => {
    const fetchMock = stubFetch(json(200, { ok: true }));
    await expect(
      api.post('/api/things', { name: 'x' }, { query: { a: 1, b: null } }),
    ).resolves.toEqual({
      ok: true,
    });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/things?a=1');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"name":"x"}');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
  });

  it('passes FormData through untouched, for uploads', async () => {
    const fetchMock = stubFetch(new Response(null, { status: 204 }));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.jpg');
    await expect(api.post('/api/photos', form)).resolves.toBeUndefined();
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init.body).toBe(form);
    expect(new Headers(init.headers).has('content-type')).toBe(false);
  });

  it('turns the error wire shape into an ApiError with status, code and message', async () => {
    stubFetch(
      json(402, { error: { code: 'INSUFFICIENT_CREDITS', message: 'Not enough credits' } }),
    );
    const error = await api.get('/api/x').catch((e: unknown) => e);
    expect(isApiError(error, 'INSUFFICIENT_CREDITS')).toBe(true);
    expect(error).toMatchObject({ status: 402, message: 'Not enough credits' });
  });

  it("reads Better Auth's flat { code, message } errors too", async () => {
    stubFetch(
      json(401, { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }),
    );
    await expect(api.post('/api/auth/sign-in/email', {})).rejects.toMatchObject({
      status: 401,
      code: 'INVALID_EMAIL_OR_PASSWORD',
      message: 'Invalid email or password',
    });
  });

  it('falls back to a generic code and message when the body says nothing', async () => {
    stubFetch(new Response('<html>oops</html>', { status: 500 }));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 500, code: 'HTTP_500' });
  });

  it('retries a GET once after 502/503/504, then gives up', async () => {
    const fetchMock = stubFetch(new Response('', { status: 503 }), json(200, { n: 1 }));
    await expect(api.get('/api/x')).resolves.toEqual({ n: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(2);

    const again = stubFetch(new Response('', { status: 502 }), new Response('', { status: 504 }));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 504 });
    expect(again).toHaveBeenCalledTimes(2);
  });

  it('does not repeat a POST after a gateway error unless asked to', async () => {
    const fetchMock = stubFetch(new Response('', { status: 502 }));
    await expect(api.post('/api/generations', {})).rejects.toMatchObject({ status: 502 });
    expect(fetchMock).toHaveBeenCalledTimes(1);

    const optedIn = stubFetch(new Response('', { status: 503 }), json(200, {}));
    await api.post('/api/auth/sign-out', {}, { retryOnGatewayError: true });
    expect(optedIn).toHaveBeenCalledTimes(2);
  });

  it('times out after 10 s with a TIMEOUT error', async () => {
    vi.useFakeTimers();
    // A server that never answers; like fetch, it rejects when the signal aborts.
    stubFetch(
      (init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          );
        }),
    );
    const pending = api.get('/api/slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'TIMEOUT' });
  });

  it('rejects with the abort reason (not an ApiError) when the caller cancels', async () => {
    const controller = new AbortController();
    controller.abort();
    stubFetch(json(200, {}));
    const error = await api.get('/api/x', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('reports a network failure as NETWORK_ERROR', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('only talks to its own origin', async () => {
    await expect(apiRequest('https://elsewhere.example/api')).rejects.toThrow(/same-origin/);
    await expect(apiRequest('//elsewhere.example/api')).rejects.toThrow(/same-origin/);
  });
});
