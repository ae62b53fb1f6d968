import { appWide } from './app-wide.ts';

/**
 * An answer built for a signed-in user is theirs alone: no browser or proxy may keep it, on
 * every route at once rather than each route remembering (GET /api/me once did not). A route
 * that chose its own caching (a signed file link's private max-age) keeps it. `sessionUser` is
 * what the auth feature's authenticator found for the request.
 */
export const privateAnswers = appWide('private-answers', async (app) => {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.sessionUser && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});
