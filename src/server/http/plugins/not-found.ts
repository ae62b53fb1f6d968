import type { FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { httpMessages } from '../../../common/messages/http.ts';
import { sendError } from './error-answers.ts';
import { appWide } from './app-wide.ts';
import { sendWebAppPage, type WebBuild } from './web-app.ts';

const methods: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * What a request no route took gets: a page of the web app (a GET outside `/api`, when it is
 * built), 405 with `Allow` when the path is known under another method, else 404. Registered
 * before any route, so that it sees every one.
 */
export const notFound = appWide(
  'not-found',
  async (app, { webBuild }: { webBuild: WebBuild | undefined }) => {
    // Every route is mirrored into a router of our own so a wrong method can answer 405, not 404.
    const knownRoutes = FindMyWay();
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (
          methods.includes(method as HTTPMethod) &&
          !knownRoutes.find(method as HTTPMethod, route.url)
        ) {
          knownRoutes.on(method as HTTPMethod, route.url, () => {});
        }
      }
    });

    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isApi = pathname.startsWith('/api/') || pathname === '/api';
      if (!isApi && (request.method === 'GET' || request.method === 'HEAD') && webBuild)
        return sendWebAppPage(reply, pathname, webBuild);
      const allowed = methods.filter((method) => knownRoutes.find(method, pathname));
      if (allowed.length > 0) {
        reply.header('allow', allowed.join(', '));
        return sendError(
          reply,
          405,
          'METHOD_NOT_ALLOWED',
          httpMessages.methodNotAllowed(request.method),
        );
      }
      return nothingHere(request, reply);
    });
  },
);

/** A plain 404 in our wire shape (a worker's listener, which has no web app and no 405). */
export const nothingHere = (_request: FastifyRequest, reply: FastifyReply) =>
  sendError(reply, 404, 'NOT_FOUND', httpMessages.nothingHere);
