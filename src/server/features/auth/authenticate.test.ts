import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Auth } from './auth.ts';
import { cookieValue, createAuthenticator } from './authenticate.ts';
import { createSessionCache } from './session-cache.ts';

const secret = 'a-secret-of-at-least-thirty-two-characters';
const cookieName = 'likeness.session_token';
const signed = (token: string) =>
  `${token}.${createHmac('sha256', secret).update(token).digest('base64')}`;

/** Better Auth as the authenticator uses it: its cookie settings and a session read, counted. */
function countingAuth() {
  const reads: string[] = [];
  const auth = {
    $context: Promise.resolve({ authCookies: { sessionToken: { name: cookieName } }, secret }),
    api: {
      getSession: async ({ headers }: { headers: Headers }) => {
        await new Promise((resolve) => setTimeout(resolve, 5)); // a database read takes time
        const value = decodeURIComponent(
          /likeness\.session_token=([^;]+)/.exec(headers.get('cookie') ?? '')![1]!,
        );
        const token = value.slice(0, value.lastIndexOf('.'));
        reads.push(token);
        return {
          user: {
            id: 'u1',
            email: 'u1@example.com',
            name: 'U',
            role: 'user',
            createdAt: new Date(0),
          },
          session: { id: 's1', token, expiresAt: new Date(Date.now() + 3_600_000) },
        };
      },
    },
  };
  return { auth: auth as unknown as Auth, reads };
}

const request = (cookieValue: string) =>
  ({
    headers: { cookie: `theme=dark; ${cookieName}=${encodeURIComponent(cookieValue)}` },
  }) as unknown as FastifyRequest;

describe('the authenticator', () => {
  it('reads a session once and answers its signed cookie from the cache after that', async () => {
    const { auth, reads } = countingAuth();
    const authenticator = createAuthenticator(auth, createSessionCache({ ttlMs: 60_000 }));
    for (let n = 0; n < 3; n += 1)
      expect((await authenticator.currentUser(request(signed('abc123'))))?.id).toBe('u1');
    expect(reads).toEqual(['abc123']);
  });

  it('never answers a cached session to its token signed wrongly or not signed, and reads nothing for them', async () => {
    const { auth, reads } = countingAuth();
    const authenticator = createAuthenticator(auth, createSessionCache({ ttlMs: 60_000 }));
    await authenticator.currentUser(request(signed('abc123')));
    const wrongly = `abc123.${Buffer.alloc(32, 7).toString('base64')}`;
    for (const value of [wrongly, 'abc123'])
      expect(await authenticator.currentUser(request(value))).toBeNull();
    expect(reads).toEqual(['abc123']);
  });

  it('reads a session once for the requests that arrive together with its cookie', async () => {
    const { auth, reads } = countingAuth();
    const authenticator = createAuthenticator(auth, createSessionCache({ ttlMs: 60_000 }));
    const users = await Promise.all(
      Array.from({ length: 5 }, () => authenticator.currentUser(request(signed('abc123')))),
    );
    expect(users.map((user) => user?.id)).toEqual(['u1', 'u1', 'u1', 'u1', 'u1']);
    expect(reads).toEqual(['abc123']);
  });

  it('reads the session again for an operator route, past the cache', async () => {
    const { auth, reads } = countingAuth();
    const authenticator = createAuthenticator(auth, createSessionCache({ ttlMs: 60_000 }));
    await authenticator.currentUser(request(signed('abc123')));
    await authenticator.freshUser(request(signed('abc123')));
    expect(reads).toEqual(['abc123', 'abc123']);
  });
});

describe('reading the session cookie from a Cookie header', () => {
  it('finds it among other cookies, URL-decoded, wherever it stands', () => {
    expect(cookieValue(`${cookieName}=a%2Bb.sig`, cookieName)).toBe('a+b.sig');
    expect(cookieValue(`theme=dark; ${cookieName}=tok.sig; lang=en`, cookieName)).toBe('tok.sig');
    expect(cookieValue(`theme=dark;${cookieName}=tok.sig`, cookieName)).toBe('tok.sig');
    expect(cookieValue(`${cookieName}="quoted.sig"`, cookieName)).toBe('quoted.sig');
  });

  it("is not fooled by a longer cookie's name or by the name inside another cookie's value", () => {
    expect(cookieValue(`x${cookieName}=forged.sig`, cookieName)).toBeUndefined();
    expect(cookieValue(`note=${cookieName}=forged.sig`, cookieName)).toBeUndefined();
    expect(cookieValue(`x${cookieName}=forged.sig; ${cookieName}=real.sig`, cookieName)).toBe(
      'real.sig',
    );
    expect(cookieValue('theme=dark', cookieName)).toBeUndefined();
    expect(cookieValue(undefined, cookieName)).toBeUndefined();
  });

  it('keeps a value that is not valid URL encoding as it came', () => {
    expect(cookieValue(`${cookieName}=100%.sig`, cookieName)).toBe('100%.sig');
  });
});
