import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifiedSessionToken } from './authenticate.ts';
import { type KnownSession, createSessionCache } from './session-cache.ts';

function known(userId: string, sessionId: string, expiresAt = 10_000_000): KnownSession {
  return {
    user: {
      id: userId,
      email: `${userId}@example.com`,
      name: userId,
      role: 'user',
      createdAt: new Date(0),
    },
    session: { id: sessionId, token: `token-${sessionId}`, expiresAt: new Date(expiresAt) },
  };
}

function clock(start = 1_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('the session cache', () => {
  it('answers a session it read for its time to live, then reads it again', () => {
    const time = clock();
    const cache = createSessionCache({ ttlMs: 30_000, now: time.now });
    cache.set('t1', known('u1', 's1'), time.now());
    expect(cache.get('t1')?.user.id).toBe('u1');
    time.advance(29_999);
    expect(cache.get('t1')).toBeDefined();
    time.advance(1);
    expect(cache.get('t1')).toBeUndefined();
  });

  it('never answers a session past its own expiry', () => {
    const time = clock();
    const cache = createSessionCache({ ttlMs: 30_000, now: time.now });
    cache.set('t1', known('u1', 's1', time.now() + 2_000), time.now());
    time.advance(2_000);
    expect(cache.get('t1')).toBeUndefined();
  });

  it('forgets the sessions that ended: one by id, or every one of the user, and no one else’s', () => {
    const time = clock();
    const cache = createSessionCache({ ttlMs: 30_000, now: time.now });
    cache.set('a1', known('alice', 'sa1'), time.now());
    cache.set('a2', known('alice', 'sa2'), time.now());
    cache.set('b1', known('bob', 'sb1'), time.now());
    time.advance(1);
    cache.end('alice', ['sa1']);
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')).toBeDefined();
    cache.end('alice', 'all');
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('b1')?.user.id).toBe('bob');
  });

  it('does not keep what a read found when the user’s sessions ended while it was under way', () => {
    const time = clock();
    const cache = createSessionCache({ ttlMs: 30_000, now: time.now });
    const readAt = time.now();
    time.advance(5);
    cache.end('alice', 'all'); // the sign-out lands while the read is in flight
    time.advance(5);
    cache.set('a1', known('alice', 'sa1'), readAt);
    expect(cache.get('a1')).toBeUndefined();
    // A read that began after the ending is kept.
    cache.set('a1', known('alice', 'sa1'), time.now());
    expect(cache.get('a1')).toBeDefined();
  });

  it('reads every session again after announcements may have been missed', () => {
    const time = clock();
    const cache = createSessionCache({ ttlMs: 30_000, now: time.now });
    const readAt = time.now();
    cache.set('a1', known('alice', 'sa1'), readAt);
    time.advance(1);
    cache.clear();
    expect(cache.get('a1')).toBeUndefined();
    cache.set('b1', known('bob', 'sb1'), readAt); // read before the gap: not kept
    expect(cache.size).toBe(0);
  });

  it('keeps at most its limit, dropping the oldest first', () => {
    const time = clock();
    const cache = createSessionCache({ ttlMs: 30_000, maxEntries: 2, now: time.now });
    cache.set('t1', known('u1', 's1'), time.now());
    cache.set('t2', known('u2', 's2'), time.now());
    cache.set('t3', known('u3', 's3'), time.now());
    expect([cache.get('t1'), cache.get('t2'), cache.get('t3')].map((k) => k?.user.id)).toEqual([
      undefined,
      'u2',
      'u3',
    ]);
  });
});

describe('the session cookie check', () => {
  const secret = 'a-secret-of-at-least-thirty-two-characters';
  const sign = (token: string, key = secret) =>
    encodeURIComponent(`${token}.${createHmac('sha256', key).update(token).digest('base64')}`);

  it('answers the token of a cookie signed with the secret, among other cookies', () => {
    const header = `theme=dark; likeness.session_token=${sign('abc123')}; other=1`;
    expect(verifiedSessionToken(header, 'likeness.session_token', secret)).toBe('abc123');
  });

  it('refuses a cookie signed with another secret, a tampered token, an unsigned or a missing one', () => {
    const name = 'likeness.session_token';
    const forged = `${name}=${sign('abc123', 'another-secret-of-thirty-two-characters')}`;
    const tampered = `${name}=${sign('abc123').replace('abc123', 'abc124')}`;
    expect(verifiedSessionToken(forged, name, secret)).toBeUndefined();
    expect(verifiedSessionToken(tampered, name, secret)).toBeUndefined();
    expect(verifiedSessionToken(`${name}=abc123`, name, secret)).toBeUndefined();
    expect(verifiedSessionToken('theme=dark', name, secret)).toBeUndefined();
    expect(verifiedSessionToken(undefined, name, secret)).toBeUndefined();
  });
});
