import { adapterMethod, conformAnswer } from '@predgate/core';
import type { CatalogService } from '@predgate/catalog';
import type { DriftRecorder } from '../venues/drift.js';
import type { Metrics } from '../metrics.js';
import { withinBudget } from '../plugins/budget.js';
import { scrubCredentials } from '../venues/scrub.js';
import type { Answerer } from './pipeline.js';

/**
 * The venue's own adapter, last: it answers every call of an adapter method that reaches it, live.
 * A venue that spans venues (the Router) answers from the catalog, as of its
 * oldest venue's last sweep.
 */
export function venueAnswerer(options: { metrics: Metrics; drift: DriftRecorder; catalog: CatalogService; budgetMs: number }): Answerer {
  const { metrics, drift, catalog, budgetMs } = options;
  return {
    name: 'venue',
    canAnswer: (call) => call.declaration.answeredBy === 'adapter',
    async answer(call) {
      const venue = call.target;
      const method = adapterMethod(venue.adapter(call.input.credentials), call.method)!;
      const stop = metrics.adapterSeconds.startTimer({ venue: venue.id, method: call.method });
      try {
        // Items the adapter leaves out are drift the caller never sees, counted as reported outside any drift scope
        // (by the venue the report names, see DriftRecorder.countUnscoped): a scope per call would cost every promise.
        const pending = Promise.resolve(method(...call.args));
        // Reads are held to the budget; a write (an order, a cancel) is not cut short, since a caller told to retry
        // might place it twice: the venue client's own timeouts bound it, and writes are never retried.
        const answer = call.declaration.verbs.includes('GET') ? await withinBudget(pending, budgetMs, venue.id, call.method) : await pending;
        // Nothing outside the model is sent: list items outside it are left out as drift, any other answer refused.
        const data = conformAnswer(call.method, call.declaration, answer, venue.id, (report) => drift.record(venue.id, report));
        return venue.plugin.spansVenues ? { data, servedFrom: 'catalog', asOf: catalog.sweptAt() } : { data, servedFrom: 'live' };
      } catch (error) {
        metrics.adapterErrors.inc({ venue: venue.id, method: call.method, code: String((error as { code?: unknown }).code ?? 'INTERNAL_ERROR') });
        // A lookup of an item left out answers with that item's report: the recorder counts it once.
        drift.record(venue.id, error);
        throw scrubCredentials(error, call.input.credentials);
      } finally {
        stop();
      }
    },
  };
}
