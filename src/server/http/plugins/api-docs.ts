import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { appWide } from './app-wide.ts';

/** The OpenAPI document, made from the routes' zod schemas: `/api/docs` (UI) and `/api/docs/json`. */
export const apiDocs = appWide('api-docs', async (app) => {
  await app.register(swagger, {
    openapi: { info: { title: 'Likeness API', version: '1.0.0' }, servers: [] },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
});
