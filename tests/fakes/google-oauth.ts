import {
  createHash,
  createSign,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Google's OAuth 2.0 / OpenID Connect endpoints, over real HTTP, keeping
 * their contract: the authorization endpoint (as if the user picked an account and consented)
 * redirects back with a code and the state; the token endpoint exchanges a code once, checking
 * the client secret, the redirect URI and the PKCE verifier, and answers access, refresh (with
 * access_type=offline) and RS256-signed id tokens; the userinfo endpoint answers the profile for
 * a bearer access token.
 */

export interface FakeGoogleAccount {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string | undefined;
  scope: string;
  offline: boolean;
  account: FakeGoogleAccount;
}

export interface FakeGoogle {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  clientId: string;
  clientSecret: string;
  /** The GOOGLE_* variables that point the app at this fake. */
  env: Record<string, string>;
  /** Every authorization request the browser made, as received. */
  authorizationRequests: URL[];
  /** Every token request the app made (form fields). */
  tokenRequests: URLSearchParams[];
  /** Refresh tokens handed out, newest last (to check how the app stores them). */
  refreshTokens: string[];
  /** The Google account that consents at the next authorization requests. */
  signInAs(account: FakeGoogleAccount): void;
  /** The next authorization ends with `?error=access_denied` (the user pressed Cancel). */
  denyNext(): void;
  close(): Promise<void>;
}

const authorizationPath = '/o/oauth2/v2/auth';
const tokenPath = '/token';
const userInfoPath = '/v1/userinfo';
const jwksPath = '/oauth2/v3/certs';

function base64url(value: Buffer | string): string {
  return Buffer.from(value).toString('base64url');
}

function signIdToken(key: KeyObject, kid: string, claims: Record<string, unknown>): string {
  const header = base64url(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' }));
  const payload = base64url(JSON.stringify(claims));
  const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(key);
  return `${header}.${payload}.${base64url(signature)}`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

export async function startFakeGoogle(
  options: { clientId?: string; clientSecret?: string } = {},
): Promise<FakeGoogle> {
  const clientId = options.clientId ?? 'fake-client-id.apps.googleusercontent.com';
  const clientSecret = options.clientSecret ?? 'fake-client-secret';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(8).toString('hex');
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, FakeGoogleAccount>();
  const authorizationRequests: URL[] = [];
  const tokenRequests: URLSearchParams[] = [];
  const refreshTokens: string[] = [];
  let account: FakeGoogleAccount = {
    sub: '100000000000000000001',
    email: 'someone@gmail.com',
    email_verified: true,
    name: 'Some One',
  };
  let deny = false;
  let baseUrl = '';

  function authorize(url: URL, response: ServerResponse) {
    authorizationRequests.push(url);
    const params = url.searchParams;
    const redirectUri = params.get('redirect_uri');
    const state = params.get('state');
    if (params.get('client_id') !== clientId || !redirectUri) {
      response.writeHead(400, { 'content-type': 'text/plain' });
      return response.end('Error 400: invalid_request (client_id or redirect_uri)');
    }
    const back = new URL(redirectUri);
    if (state) back.searchParams.set('state', state);
    if (deny) {
      deny = false;
      back.searchParams.set('error', 'access_denied');
    } else if (params.get('response_type') !== 'code') {
      back.searchParams.set('error', 'unsupported_response_type');
    } else {
      const code = `4/${randomBytes(24).toString('base64url')}`;
      const challenge = params.get('code_challenge') ?? undefined;
      if (challenge && params.get('code_challenge_method') !== 'S256') {
        back.searchParams.set('error', 'invalid_request');
      } else {
        codes.set(code, {
          clientId,
          redirectUri,
          codeChallenge: challenge,
          scope: params.get('scope') ?? '',
          offline: params.get('access_type') === 'offline',
          account: { ...account },
        });
        back.searchParams.set('code', code);
        back.searchParams.set('scope', params.get('scope') ?? '');
      }
    }
    response.writeHead(302, { location: back.toString() });
    response.end();
  }

  async function token(request: IncomingMessage, response: ServerResponse) {
    const form = new URLSearchParams(await readBody(request));
    tokenRequests.push(form);
    // Google accepts the client's credentials in the body or as HTTP Basic.
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = request.headers.authorization?.match(/^Basic (.+)$/i)?.[1];
    if (basic) {
      const [user, pass] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      id = decodeURIComponent(user ?? '');
      secret = decodeURIComponent(pass ?? '');
    }
    if (id !== clientId || secret !== clientSecret)
      return json(response, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    if (form.get('grant_type') !== 'authorization_code')
      return json(response, 400, { error: 'unsupported_grant_type' });
    const code = form.get('code') ?? '';
    const issued = codes.get(code);
    // A code works once.
    codes.delete(code);
    if (!issued)
      return json(response, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
    if (form.get('redirect_uri') !== issued.redirectUri)
      return json(response, 400, { error: 'redirect_uri_mismatch' });
    if (issued.codeChallenge) {
      const verifier = form.get('code_verifier') ?? '';
      const expected = createHash('sha256').update(verifier).digest('base64url');
      if (expected !== issued.codeChallenge)
        return json(response, 400, {
          error: 'invalid_grant',
          error_description: 'Missing code verifier.',
        });
    }
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    accessTokens.set(accessToken, issued.account);
    const now = Math.floor(Date.now() / 1000);
    const body: Record<string, unknown> = {
      access_token: accessToken,
      expires_in: 3599,
      scope: issued.scope,
      token_type: 'Bearer',
      id_token: signIdToken(privateKey, kid, {
        iss: 'https://accounts.google.com',
        azp: clientId,
        aud: clientId,
        sub: issued.account.sub,
        email: issued.account.email,
        email_verified: issued.account.email_verified ?? true,
        name: issued.account.name,
        iat: now,
        exp: now + 3600,
      }),
    };
    if (issued.offline) {
      const refreshToken = `1//${randomBytes(24).toString('base64url')}`;
      refreshTokens.push(refreshToken);
      body.refresh_token = refreshToken;
    }
    return json(response, 200, body);
  }

  function userInfo(request: IncomingMessage, response: ServerResponse) {
    const bearer = request.headers.authorization?.match(/^Bearer (.+)$/i)?.[1];
    const owner = bearer ? accessTokens.get(bearer) : undefined;
    if (!owner) return json(response, 401, { error: 'invalid_token' });
    return json(response, 200, {
      sub: owner.sub,
      email: owner.email,
      email_verified: owner.email_verified ?? true,
      name: owner.name,
      picture: owner.picture,
    });
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', baseUrl);
    const route = `${request.method} ${url.pathname}`;
    const handle = async () => {
      if (route === `GET ${authorizationPath}`) return authorize(url, response);
      if (route === `POST ${tokenPath}`) return token(request, response);
      if (route === `GET ${userInfoPath}`) return userInfo(request, response);
      if (route === `GET ${jwksPath}`) {
        const jwk = publicKey.export({ format: 'jwk' });
        return json(response, 200, { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] });
      }
      return json(response, 404, { error: 'not_found' });
    };
    handle().catch((error: unknown) => json(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    clientId,
    clientSecret,
    env: {
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_AUTHORIZATION_URL: `${baseUrl}${authorizationPath}`,
      GOOGLE_TOKEN_URL: `${baseUrl}${tokenPath}`,
      GOOGLE_USERINFO_URL: `${baseUrl}${userInfoPath}`,
    },
    authorizationRequests,
    tokenRequests,
    refreshTokens,
    signInAs(next) {
      account = next;
    },
    denyNext() {
      deny = true;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
