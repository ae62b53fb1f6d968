import type { RequestSession, SessionUser } from './authenticate.ts';

/** Which sessions of a user ended, as the event bus announces them: some by id, or every one. */
type EndedSessions = readonly string[] | 'all';

export interface KnownSession {
  user: SessionUser;
  session: RequestSession;
}

export interface SessionCacheOptions {
  /** How long a session read from the database is trusted without reading it again. */
  ttlMs: number;
  /** The most sessions kept; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Sessions this process has read lately, by a key (the authenticator's: the signed cookie's
 * value), so a request does not read its session row again. Safe because every way a session
 * ends reaches every process: sign-out, a password reset and an account's deletion are
 * announced on the event bus (`end`), a gap in those announcements empties the cache (`clear`),
 * and a session past its own expiry is never answered.
 *
 * A read that began before an ending of its user is not kept: it may have seen the session just
 * before it was deleted, and the announcement has already gone by.
 */
export function createSessionCache(options: SessionCacheOptions) {
  const { ttlMs, maxEntries = 50_000, now = Date.now } = options;
  const byKey = new Map<string, { known: KnownSession; until: number }>();
  const keysOfUser = new Map<string, Set<string>>();
  // When each user's sessions last ended here; kept as long as a read in flight could matter.
  const endedAt = new Map<string, number>();
  let clearedAt = -Infinity;

  function remove(key: string) {
    const entry = byKey.get(key);
    if (!entry) return;
    byKey.delete(key);
    const keys = keysOfUser.get(entry.known.user.id);
    keys?.delete(key);
    if (keys?.size === 0) keysOfUser.delete(entry.known.user.id);
  }

  function forgetOldEndings(at: number) {
    if (endedAt.size < 10_000) return;
    for (const [userId, time] of endedAt) if (time < at - ttlMs) endedAt.delete(userId);
  }

  return {
    get(key: string): KnownSession | undefined {
      const entry = byKey.get(key);
      if (!entry) return undefined;
      const at = now();
      if (entry.until <= at || entry.known.session.expiresAt.getTime() <= at) {
        remove(key);
        return undefined;
      }
      return entry.known;
    },

    /** Keeps what a read that began at `readAt` found, unless the user's sessions ended since. */
    set(key: string, known: KnownSession, readAt: number): void {
      if (readAt <= clearedAt || readAt <= (endedAt.get(known.user.id) ?? -Infinity)) return;
      remove(key);
      if (byKey.size >= maxEntries) remove(byKey.keys().next().value!);
      byKey.set(key, { known, until: now() + ttlMs });
      let keys = keysOfUser.get(known.user.id);
      if (!keys) keysOfUser.set(known.user.id, (keys = new Set()));
      keys.add(key);
    },

    /** Sessions of a user that ended (signed out, reset, deleted): never answered again. */
    end(userId: string, sessions: EndedSessions): void {
      const at = now();
      forgetOldEndings(at);
      endedAt.set(userId, at);
      for (const key of [...(keysOfUser.get(userId) ?? [])]) {
        const entry = byKey.get(key)!;
        if (sessions === 'all' || sessions.includes(entry.known.session.id)) remove(key);
      }
    },

    /** Announcements may have been missed: every session is read again. */
    clear(): void {
      clearedAt = now();
      byKey.clear();
      keysOfUser.clear();
      endedAt.clear();
    },

    get size() {
      return byKey.size;
    },
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;
