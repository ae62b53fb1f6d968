import type { GenericOAuthConfig } from 'better-auth/plugins/generic-oauth';
import type { GoogleConfig } from '../../config.ts';

const userInfoTimeoutMs = 10_000;

interface GoogleUserInfo {
  sub?: unknown;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  picture?: unknown;
}

/**
 * Google sign-in as a Better Auth generic OAuth provider with the id `google`: the same
 * endpoints (`/sign-in/social`, `/callback/google`) as its built-in Google provider, but with
 * Google's authorization, token and userinfo URLs taken from the configuration (Google's own by
 * default), so tests can run the whole round trip against a local fake.
 *
 * The profile comes from Google's userinfo endpoint, called with the access token just received
 * from the token endpoint over TLS: that answer is authoritative, so no id_token signature has
 * to be trusted or verified.
 */
export function googleProvider(google: GoogleConfig): GenericOAuthConfig<'google'> {
  return {
    providerId: 'google',
    name: 'Google',
    clientId: google.clientId,
    clientSecret: google.clientSecret,
    authorizationUrl: google.authorizationUrl,
    tokenUrl: google.tokenUrl,
    userInfoUrl: google.userInfoUrl,
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    // The specification's "offline access with a forced consent prompt": Google then returns a
    // refresh token on every sign-in.
    accessType: 'offline',
    prompt: 'select_account consent',
    async getUserInfo(tokens) {
      if (!tokens.accessToken) return null;
      const response = await fetch(google.userInfoUrl, {
        headers: { authorization: `Bearer ${tokens.accessToken}`, accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(userInfoTimeoutMs),
      });
      if (!response.ok) return null;
      const profile = (await response.json()) as GoogleUserInfo;
      if (typeof profile.sub !== 'string' || typeof profile.email !== 'string') return null;
      return {
        id: profile.sub,
        email: profile.email,
        emailVerified: profile.email_verified === true || profile.email_verified === 'true',
        name: typeof profile.name === 'string' ? profile.name : profile.email.split('@')[0],
        image: typeof profile.picture === 'string' ? profile.picture : undefined,
      };
    },
  };
}
