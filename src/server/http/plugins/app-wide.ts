import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/**
 * A plugin whose hooks, handlers and routes apply to the whole app rather than to a room of its
 * own: Fastify's `skip-override` property, which is what fastify-plugin sets (that package is
 * only a dependency of our dependencies, so it is not imported here).
 */
export function appWide<Options extends FastifyPluginOptions = Record<never, never>>(
  name: string,
  plugin: (app: FastifyInstance, options: Options) => Promise<void>,
): FastifyPluginAsync<Options> {
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: name,
  });
}
