import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.ts';
import { uploadFile } from './upload-file.ts';

type Listener = (event: { lengthComputable?: boolean; loaded?: number; total?: number }) => void;

/** XMLHttpRequest is this module's edge to the network; the fake answers as a test says. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  timeout = 0;
  aborted = false;
  private listeners = new Map<string, Listener[]>();
  upload = { addEventListener: (type: string, fn: Listener) => this.on(`upload:${type}`, fn) };

  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, fn: Listener) {
    this.on(type, fn);
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.emit('abort');
  }
  on(type: string, fn: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string, event: Parameters<Listener>[0] = {}) {
    for (const fn of this.listeners.get(type) ?? []) fn(event);
  }
  answer(status: number, text: string) {
    this.status = status;
    this.responseText = text;
    this.emit('load');
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.last = null;
});

function start(options: Parameters<typeof uploadFile>[2] = {}) {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  const file = new File(['abc'], 'a-01.jpg', { type: 'image/jpeg' });
  const promise = uploadFile<{ photo: { id: string } }>('/api/studio/photos', file, options);
  return { promise, xhr: FakeXhr.last! };
}

describe('uploadFile', () => {
  it('posts the file as multipart field `file`, reports progress and parses the answer', async () => {
    const progress: number[] = [];
    const { promise, xhr } = start({ onProgress: (p) => progress.push(p) });
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/studio/photos');
    expect((xhr.body as FormData).get('file')).toBeInstanceOf(File);
    xhr.emit('upload:progress', { lengthComputable: true, loaded: 50, total: 100 });
    xhr.answer(201, '{"photo":{"id":"p1"}}');
    await expect(promise).resolves.toEqual({ photo: { id: 'p1' } });
    expect(progress).toEqual([0.5, 1]);
  });

  it("turns the server's error shape into an ApiError", async () => {
    const { promise, xhr } = start();
    xhr.answer(409, '{"error":{"code":"LIMIT_REACHED","message":"You already have 12 photos."}}');
    const error = await promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'LIMIT_REACHED' });
    expect((error as ApiError).message).toBe('You already have 12 photos.');
  });

  it('reports network failures and timeouts as ApiErrors without a status', async () => {
    const failed = start();
    failed.xhr.emit('error');
    await expect(failed.promise).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    const slow = start();
    slow.xhr.emit('timeout');
    await expect(slow.promise).rejects.toMatchObject({ status: 0, code: 'TIMEOUT' });
  });

  it('rejects with the signal reason when cancelled', async () => {
    const controller = new AbortController();
    const { promise, xhr } = start({ signal: controller.signal });
    const reason = new Error('left the page');
    controller.abort(reason);
    expect(xhr.aborted).toBe(true);
    await expect(promise).rejects.toBe(reason);
  });

  it('refuses other origins', async () => {
    await expect(uploadFile('https://elsewhere.example/x', new Blob(['x']))).rejects.toThrow(
      /same-origin/,
    );
  });
});
