import { it } from 'vitest';
import { createTestApp } from '../helpers/test-app.ts';
import { signUp } from '../helpers/users.ts';

it('probe', async () => {
  const app = await createTestApp({ env: { LOG_LEVEL: 'error' } });
  const u = await signUp(app);
  const send = async (method: string, url: string, payload?: string | Buffer, extra: Record<string, string> = {}) => {
    const r = await app.app!.inject({ method: method as 'GET', url, headers: { ...u.headers, ...extra }, ...(payload !== undefined ? { payload } : {}) });
    console.log(method, url, JSON.stringify(extra), '→', r.statusCode, r.body.slice(0, 200));
    return r;
  };

  await send('GET', '/api/studio/draft', undefined, { 'content-type': '' });
  await send('DELETE', '/api/studio/photos/abc', undefined, { 'content-type': '' });
  await send('DELETE', '/api/studio/photos/abc', undefined, { 'content-type': 'application/json' });
  await send('DELETE', '/api/studio/photos/abc', undefined, {});
  await app.stop();
}, 120_000);
