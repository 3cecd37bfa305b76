import Hapi from '@hapi/hapi';
import Joi from 'joi';
import { expect, test } from 'vitest';
import { documented, routePaths } from './route-paths.js';

test('a documented route appears with the parameters and body its own validation declares, bounds and defaults included', () => {
  const server = Hapi.server();
  const doc = { operationId: 'things', summary: 'Things.', tags: ['Test'], responses: { '200': { description: 'Things.' } } };
  server.route({
    method: 'POST',
    path: '/things/{id}',
    options: {
      ...documented(doc),
      validate: {
        params: Joi.object({ id: Joi.string().pattern(/^t_\d+$/) }),
        query: Joi.object({ limit: Joi.number().integer().min(1).max(7).default(3), q: Joi.string().required().description('Words.') }),
        payload: Joi.object({ name: Joi.string().max(20).required() }),
      },
    },
    handler: () => null,
  });
  server.route({ method: 'GET', path: '/undocumented', handler: () => null });

  const paths = routePaths(server.table());
  expect(Object.keys(paths)).toEqual(['/things/{id}']);
  expect(paths['/things/{id}']!.post).toEqual({
    operationId: 'things',
    summary: 'Things.',
    tags: ['Test'],
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^t_\\d+$' } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 7, default: 3 } },
      { name: 'q', in: 'query', required: true, schema: { type: 'string' }, description: 'Words.' },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } }, required: ['name'], additionalProperties: false },
        },
      },
    },
    responses: doc.responses,
  });
});
