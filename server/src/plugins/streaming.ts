import type { Plugin } from '@hapi/hapi';
import { PredgateError } from '@predgate/core';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';

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
      options: { auth: false },
      handler() {
        throw new PredgateError('BAD_REQUEST', '/ws is a WebSocket endpoint: connect with "Upgrade: websocket"', {
          status: 426,
          detail: { upgrade: 'websocket' },
        });
      },
    });
  },
};
