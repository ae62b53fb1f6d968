// A new user signed up over HTTP, as the sign-up form does: what a benchmark acts as.
import { randomBytes } from 'node:crypto';

export interface BenchUser {
  id: string;
  /** The session cookies, ready for a `cookie` header. */
  cookie: string;
}

/** `origin` is the app's public address (state-changing requests must come from it). */
export async function signUpOverHttp(url: string, origin = url): Promise<BenchUser> {
  const response = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-${randomBytes(6).toString('hex')}@example.com`,
      password: 'correct-horse-battery',
      name: 'Bench',
    }),
  });
  if (response.status !== 200) throw new Error(`sign-up answered ${response.status}`);
  const { user } = (await response.json()) as { user: { id: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { id: user.id, cookie };
}
