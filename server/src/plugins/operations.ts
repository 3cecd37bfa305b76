import type { Plugin, Request, ResponseObject } from '@hapi/hapi';
import type { MethodRegistry } from '@predgate/core';
import type { DependencyContainer } from 'tsyringe';
import { tokens } from '../container.js';
import type { VenueDirectory } from '../venues/directory.js';

/**
 * `/health` (no key: load balancers call it), `/ready` (the catalog store
 * answers; each venue's sweep state) and `/metrics` in Prometheus' text
 * format. Request counts and latencies are recorded here for every route.
 */
export const operationsPlugin: Plugin<{ container: DependencyContainer }> = {
  name: 'predgate-operations',
  register(server, { container }) {
    const metrics = container.resolve(tokens.metrics);
    const venues = container.resolve(tokens.venues);
    const methods = container.resolve(tokens.methods);
    const clock = container.resolve(tokens.clock);
    const http = container.resolve(tokens.http);
    const catalog = container.resolve(tokens.catalog);

    server.route({
      method: 'GET',
      path: '/health',
      options: { auth: false },
      handler: () => ({ status: 'ok', timestamp: clock.now() }),
    });

    server.route({
      method: 'GET',
      path: '/ready',
      handler: async (_request, h) => {
        // Ready means the catalog store answers: the Router and catalog-served calls depend on it.
        const reachable = await catalog.store.sweeps().then(
          () => true,
          () => false,
        );
        const sweeps = Object.fromEntries(
          catalog
            .status()
            .map((status) => [
              status.venue,
              status.lastSweep === null ? (status.lastError ? 'failing' : 'pending') : catalog.isFresh(status.venue) ? 'fresh' : 'stale',
            ]),
        );
        const body = { status: reachable ? 'ready' : 'catalog unreachable', venues: venues.ids, sweeps };
        return h.response(body).code(reachable ? 200 : 503);
      },
    });

    server.route({
      method: 'GET',
      path: '/metrics',
      handler: async (_request, h) => {
        for (const [venue, circuit] of Object.entries(http.circuits())) {
          metrics.venueCircuit.set({ venue }, circuit.state === 'open' ? 1 : circuit.state === 'half-open' ? 0.5 : 0);
        }
        return h.response(await metrics.registry.metrics()).type(metrics.registry.contentType);
      },
    });

    server.events.on('response', (request: Request) => {
      const { exchange, method } = labelsFor(request, venues, methods);
      const seconds = ((request.info.completed || request.info.responded || Date.now()) - request.info.received) / 1000;
      metrics.recordRequest(exchange, method, (request.response as ResponseObject | null)?.statusCode ?? 0, seconds);
    });
  },
};

/** A request's metric labels: known venues and methods only, so clients cannot grow the series without bound. */
function labelsFor(request: Request, venues: VenueDirectory, methods: MethodRegistry): { exchange: string; method: string } {
  // A request hapi refused before routing (`GET *`, a malformed URL) has no params and no route.
  const { exchange = 'router', method } = (request.params ?? {}) as { exchange?: string; method?: string };
  const path = request.route?.path;
  if (path === undefined) return { exchange: 'none', method: 'unknown' };
  if (path.startsWith('/api/')) {
    return {
      exchange: exchange === 'router' || venues.get(exchange) ? exchange : 'unknown',
      method: method !== undefined && methods.get(method) ? method : 'unknown',
    };
  }
  return { exchange: 'none', method: path === '/{p*}' ? 'unknown' : path };
}
