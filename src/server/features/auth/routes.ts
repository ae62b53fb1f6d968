import type { FastifyInstance } from 'fastify';
import type { Auth } from './auth.ts';

/**
 * Hands `/api/auth/*` to Better Auth as a Fetch `Request`. The body is kept as the raw text the
 * browser sent, so Better Auth parses and validates it itself.
 */
export async function authRoutes(app: FastifyInstance, { auth }: { auth: Auth }) {
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    async handler(request, reply) {
      const url = new URL(request.url, 'http://internal');
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const response = await auth.handler(
        new Request(new URL(url.pathname + url.search, auth.options.baseURL), {
          method: request.method,
          headers,
          body:
            request.method === 'POST' && typeof request.body === 'string'
              ? request.body
              : undefined,
        }),
      );
      reply.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length) reply.header('set-cookie', cookies);
      return reply.send(response.body ? await response.text() : null);
    },
  });
}
