import { queryOptions, useQuery } from '@tanstack/react-query';
// Type-only: the schemas live with zod, which the auth pages do not need to download.
import type {
  AuthOptionsResponse,
  AuthUserResponse,
  RequestPasswordResetRequest,
  ResetPasswordRequest,
  SignInRequest,
  SignUpRequest,
  SocialSignInRequest,
} from '../../../common/api/auth.ts';
import { api } from '../../lib/api-client.ts';

/**
 * The auth endpoints the pages call. Each answers the session as an httpOnly cookie only, so a
 * page that signed someone in refetches the session (`/api/me`) to learn who it is.
 */

export function signInWithEmail(body: SignInRequest): Promise<AuthUserResponse> {
  return api.post<AuthUserResponse>('/api/auth/sign-in/email', body);
}

export function signUpWithEmail(body: SignUpRequest): Promise<AuthUserResponse> {
  return api.post<AuthUserResponse>('/api/auth/sign-up/email', body);
}

/** Answers the same whether or not the address has an account, so nobody can probe for one. */
export function requestPasswordReset(body: RequestPasswordResetRequest): Promise<unknown> {
  return api.post('/api/auth/request-password-reset', body);
}

export function resetPassword(body: ResetPasswordRequest): Promise<unknown> {
  return api.post('/api/auth/reset-password', body);
}

/** Starts Google sign-in (or sign-up): the answer is Google's page to send the browser to. */
export function startGoogleSignIn(
  body: Omit<SocialSignInRequest, 'provider'>,
): Promise<{ url?: string }> {
  return api.post<{ url?: string }>('/api/auth/sign-in/social', { provider: 'google', ...body });
}

function authOptionsQueryOptions() {
  return queryOptions({
    queryKey: ['auth-options'],
    queryFn: ({ signal }) => api.get<AuthOptionsResponse>('/api/auth-options', { signal }),
    // Server configuration: it does not change while the page is open.
    staleTime: Infinity,
  });
}

/**
 * Which sign-in methods the server offers. `ready` turns true once that is known (or could not
 * be learned, which counts as "email only"), so the pages can wait for it instead of showing a
 * Google button that then disappears.
 */
export function useAuthOptions(): { ready: boolean; google: boolean } {
  const query = useQuery(authOptionsQueryOptions());
  return { ready: !query.isPending, google: query.data?.google === true };
}
