import type { Plugin } from '@hapi/hapi';
import { maxJsonDepth, nestsDeeperThan, tooDeep } from '../json-depth.js';

/**
 * Refuses a JSON body nested deeper than `maxJsonDepth` with a 400
 * VALIDATION_ERROR, on every route, right after hapi parses it and before
 * anything else reads it. The walk is iterative and stops at the first node
 * past the limit.
 */
export const jsonDepthPlugin: Plugin<void> = {
  name: 'predgate-json-depth',
  register(server) {
    server.ext('onPostAuth', (request, h) => {
      if (nestsDeeperThan(request.payload, maxJsonDepth)) {
        throw tooDeep('The request body');
      }
      return h.continue;
    });
  },
};
