import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A request's metric labels; `exchange` and `method` only ever known venues and methods (see `labelsFor`). */
export interface RequestLabels {
  exchange: string;
  method: string;
  status: string;
}

export interface Metrics {
  registry: Registry;
  /** Counts one answered request by venue (`exchange`), method and HTTP status, and its time, whichever part of the gateway answered it. */
  recordRequest(exchange: string, method: string, status: number, seconds: number): void;
  /** Calls into adapters, live venue calls included, by venue and method. */
  adapterSeconds: Histogram<'venue' | 'method'>;
  adapterErrors: Counter<'venue' | 'method' | 'code'>;
  /** Pass-through calls the catalog answered instead of the venue. */
  catalogAnswers: Counter<'venue' | 'method'>;
  /** Requests the HTTP parser refused, by its error code. */
  refusedRequests: Counter<'reason'>;
  /** Unhandled rejections and uncaught exceptions the process survived. */
  processErrors: Counter<'kind'>;
  /** Venue answers refused for their shape, by venue, endpoint and field. */
  venueDrift: Counter<'venue' | 'endpoint' | 'field'>;
  /** 1 while a venue's circuit breaker refuses calls (open), 0.5 while it tries one (half-open), 0 otherwise. */
  venueCircuit: Gauge<'venue'>;
  /** Venue subscriptions open, shared by every client watching the same symbol. */
  streamUpstreams: Gauge;
  /** `/ws` connections open. */
  streamClients: Gauge;
  /** `/ws` clients dropped for falling behind. */
  streamSlowConsumers: Counter;
}

/** A registry per app, so tests and several gateways in one process do not share counters. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const buckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  // One label set per venue, method and status, made on its first request and reused: the labels are bounded.
  // Each keeps its own count, which the counter reads when scraped: prom-client hashes the labels on every
  // call, and the histogram below already pays that once per request.
  const labelSets = new Map<string, { labels: RequestLabels; count: number }>();
  // Registered for its scrape only: it reads the counts above.
  new Counter({
    name: 'predgate_http_requests_total',
    help: 'Gateway requests by venue, method and status',
    labelNames: ['exchange', 'method', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, count } of labelSets.values()) this.inc(labels, count);
    },
  });
  const requestSeconds = new Histogram({
    name: 'predgate_http_request_duration_seconds',
    help: 'Gateway request latency by venue, method and status',
    labelNames: ['exchange', 'method', 'status'],
    buckets,
    registers: [registry],
  });
  return {
    registry,
    recordRequest(exchange, method, status, seconds) {
      const name = `${exchange} ${method} ${status}`;
      let set = labelSets.get(name);
      if (!set) {
        set = { labels: { exchange, method, status: String(status) }, count: 0 };
        labelSets.set(name, set);
      }
      set.count += 1;
      requestSeconds.observe(set.labels, seconds);
    },
    adapterSeconds: new Histogram({
      name: 'predgate_adapter_call_duration_seconds',
      help: 'Adapter call latency by venue and method',
      labelNames: ['venue', 'method'],
      buckets,
      registers: [registry],
    }),
    adapterErrors: new Counter({
      name: 'predgate_adapter_errors_total',
      help: 'Adapter call failures by venue, method and unified error code',
      labelNames: ['venue', 'method', 'code'],
      registers: [registry],
    }),
    catalogAnswers: new Counter({
      name: 'predgate_catalog_answers_total',
      help: 'Pass-through calls answered from the catalog, by venue and method',
      labelNames: ['venue', 'method'],
      registers: [registry],
    }),
    refusedRequests: new Counter({
      name: 'predgate_refused_requests_total',
      help: 'Requests the HTTP parser refused (oversized headers, malformed request lines), by parser error',
      labelNames: ['reason'],
      registers: [registry],
    }),
    processErrors: new Counter({
      name: 'predgate_process_errors_total',
      help: 'Unhandled rejections and uncaught exceptions logged and survived',
      labelNames: ['kind'],
      registers: [registry],
    }),
    venueCircuit: new Gauge({
      name: 'predgate_venue_circuit_open',
      help: "1 while a venue's circuit breaker refuses calls, 0.5 while it lets one through to test the venue, 0 when closed",
      labelNames: ['venue'],
      registers: [registry],
    }),
    streamUpstreams: new Gauge({
      name: 'predgate_stream_upstreams',
      help: 'Venue subscriptions open, each shared by every client watching it',
      registers: [registry],
    }),
    streamClients: new Gauge({ name: 'predgate_stream_clients', help: 'WebSocket connections open on /ws', registers: [registry] }),
    streamSlowConsumers: new Counter({
      name: 'predgate_stream_slow_consumers_total',
      help: 'WebSocket clients disconnected for falling behind',
      registers: [registry],
    }),
    venueDrift: new Counter({
      name: 'predgate_venue_drift_total',
      help: 'Venue answers an adapter refused, and list items it left out, because a field was missing, of another type or outside the model',
      labelNames: ['venue', 'endpoint', 'field'],
      registers: [registry],
    }),
  };
}
