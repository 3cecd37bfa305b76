import type { Plugin } from '@hapi/hapi';
import { PredgateError } from '@predgate/core';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';
import { documented } from '../docs/route-paths.js';

/**
 * `GET /ws`: the WebSocket endpoint pmxt clients stream from. The upgrade is
 * taken off the HTTP listener before hapi sees it (authenticated by API key,
 * refused with 401 otherwise); a plain GET is told to upgrade. Sockets,
 * upstreams and watches end when the server stops.
 */
export const streamingPlugin: Plugin<{ container: DependencyContainer }> = {
  name: 'predgate-streaming',
  register(server, { container }) {
    const streams = container.resolve(tokens.streams);
    server.listener.on('upgrade', (request, socket, head) => streams.upgrade(request, socket, head));
    server.ext('onPreStop', async () => {
      await streams.close();
    });
    server.route({
      method: 'GET',
      path: '/ws',
      options: {
        auth: false,
        ...documented({
          operationId: 'streamSocket',
          summary: 'WebSocket endpoint for the streaming methods (pmxt’s frame protocol); the API key as a Bearer header or `?apiKey=`.',
          description: [
            'Upgrade to a WebSocket. Client frames: `{"id", "action": "subscribe" | "unsubscribe", "exchange", "method", "args", "credentials"?}`.',
            'Server frames: `{"event": "subscribed", "id"}`, `{"event": "data", "id", "method", "symbol", "data"}` (one per symbol and update; books are full books),',
            '`{"event": "unsubscribed", "id"}` and `{"event": "error", "id", "error": {"code", "message", "retryable"}}` with the codes of `ErrorCode`.',
            'A subscription without data for the data timeout gets a retryable `NETWORK_ERROR` frame; a bad frame gets an error frame and the socket stays open;',
            'a client that falls behind first loses intermediate books, then is closed with code 1013 and the reason. Without a socket, POST the same method to',
            '`/api/{exchange}/{method}` for the next update, and end the watch with the method’s unwatch.',
          ].join(' '),
          tags: ['Streaming'],
          // Read by the upgrade, which hapi never sees.
          parameters: [
            { name: 'apiKey', in: 'query', required: false, schema: { type: 'string' }, description: 'The API key, for clients that cannot set headers.' },
          ],
          responses: {
            '101': { description: 'Switching protocols: the socket is open.' },
            '401': { $ref: '#/components/responses/Status401' },
            '426': {
              description: 'A plain GET: upgrade to a WebSocket.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
            },
          },
        }),
      },
      handler() {
        throw new PredgateError('BAD_REQUEST', '/ws is a WebSocket endpoint: connect with "Upgrade: websocket"', {
          status: 426,
          detail: { upgrade: 'websocket' },
        });
      },
    });
  },
};
