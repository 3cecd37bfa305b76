import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogService, EmbeddedCatalogStore } from '@predgate/catalog';
import { silentLogger, systemClock } from '@predgate/core';
import type { Event, VenueAdapter } from '@predgate/core';
import { WebhookService } from '../../server/src/webhooks/service.js';
import type { WebhookSettings } from '../../server/src/webhooks/service.js';
import { SweepChanges } from '../../server/src/webhooks/sweep-changes.js';

export interface WebhookFigures {
  deliveries: number;
  deliveriesPerSecond: number;
  /** The same number of bare undici POSTs to the same receiver, 64 at a time, in the same run: the machine's ceiling. */
  barePostsPerSecond: number;
  markets: number;
  resolved: number;
  /** From the sweep's commit to the receiver's receipt of each notification it caused. */
  changeToDeliveryMs: { p50: number; p99: number; max: number };
  loadAverage: number[];
}

const settings: WebhookSettings = {
  allowHttp: true,
  allowedNetworks: ['127.0.0.1'],
  maxPerKey: 25,
  timeoutMs: 5_000,
  concurrency: 64,
  firstRetryMs: 100,
  maxRetryMs: 1_000,
  retryForHours: 24,
};

/**
 * Webhook delivery, in one process with its receiver (a bare node:http
 * server on 127.0.0.1 answering 204): DELIVERIES notifications made at once
 * and delivered (each journaled and synced before it is sent, signed, posted),
 * against as many bare POSTs to the same receiver as the ceiling,
 * and the time from a catalog sweep's commit to the receipt of each
 * `market.resolved` it caused (MARKETS markets, a tenth of them resolving).
 */
export async function benchWebhooks(): Promise<{ summary: string; details: WebhookFigures }> {
  const count = Number(process.env.BENCH_DELIVERIES ?? 5_000);
  const marketCount = Number(process.env.BENCH_MARKETS ?? 2_000);
  const received = new Map<string, number>();
  const receiver = createServer((request, response) => {
    received.set(String(request.headers['webhook-id']), performance.now());
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  receiver.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const dir = mkdtempSync(join(tmpdir(), 'predgate-bench-webhooks-'));
  const logger = silentLogger;
  const webhooks = await WebhookService.open({ dir: join(dir, 'webhooks'), settings, clock: systemClock, logger });
  try {
    // The ceiling: bare POSTs, no journal, no signature.
    const agent = new Agent({ connections: settings.concurrency });
    let next = 0;
    const bareStarted = performance.now();
    await Promise.all(
      Array.from({ length: settings.concurrency }, async () => {
        while (next < count) {
          next += 1;
          const answer = await request(url, { method: 'POST', body: '{}', headers: { 'webhook-id': `bare${next}` }, dispatcher: agent });
          await answer.body.dump();
        }
      }),
    );
    const barePostsPerSecond = Math.round(count / ((performance.now() - bareStarted) / 1000));
    await agent.close();
    received.clear();

    // Throughput.
    const { subscription } = await webhooks.subscribe('bench', { url, events: [{ kind: 'market.closed', filter: {} }] });
    const started = performance.now();
    await Promise.all(Array.from({ length: count }, (_, index) => webhooks.notify(subscription, { kind: 'market.closed', key: `m${index}`, data: { index } })));
    await until(() => received.size >= count);
    const deliveriesPerSecond = Math.round(count / ((performance.now() - started) / 1000));
    await webhooks.unsubscribe('bench', subscription.id);
    received.clear();

    // Latency from a catalog change to its delivery.
    const store = new EmbeddedCatalogStore({ dir: join(dir, 'catalog') });
    await store.open();
    let sweep = 0;
    // Paged as a venue pages: a sweep asks by offset until a short page.
    const adapter = {
      profile: {},
      fetchEvents: ({ offset = 0, limit = marketCount }: { offset?: number; limit?: number }) =>
        Promise.resolve(catalogAt(sweep, marketCount).slice(offset, offset + limit)),
    } as unknown as VenueAdapter;
    const catalog = new CatalogService({ store, venues: [{ id: 'bench', adapter, shrinkGuard: false }], logger: silentLogger, pageSize: 1_000 });
    const sweeps = new SweepChanges({ dir: join(dir, 'snapshots'), store, webhooks, streamsBooks: () => false, logger });
    await webhooks.subscribe('bench', { url, events: [{ kind: 'market.resolved', filter: {} }] });
    await sweeps.sweepCommitted('bench', (await catalog.sweep('bench')).sweepId);
    sweep = 1;
    const record = await catalog.sweep('bench');
    const committedAt = performance.now();
    await sweeps.sweepCommitted('bench', record.sweepId);
    const resolved = Math.floor(marketCount / 10);
    await until(() => received.size >= resolved);
    const latencies = [...received.values()].map((at) => at - committedAt).sort((a, b) => a - b);
    await catalog.stop();
    await store.close();
    const details: WebhookFigures = {
      deliveries: count,
      deliveriesPerSecond,
      barePostsPerSecond,
      markets: marketCount,
      resolved,
      changeToDeliveryMs: { p50: round(percentile(latencies, 0.5)), p99: round(percentile(latencies, 0.99)), max: round(latencies.at(-1) ?? 0) },
      loadAverage: loadavg().map(round),
    };
    const summary = [
      '| figure | value |',
      '|---|---|',
      `| deliveries per second (${count}, journaled, signed, posted to a local receiver) | ${deliveriesPerSecond} |`,
      `| bare undici POSTs per second to the same receiver (ceiling, same run) | ${barePostsPerSecond} |`,
      `| sweep commit → delivery, ${resolved} market.resolved of ${marketCount} markets: p50 / p99 / max ms | ${details.changeToDeliveryMs.p50} / ${details.changeToDeliveryMs.p99} / ${details.changeToDeliveryMs.max} |`,
      `| load average at the end (1 / 5 / 15 min) | ${details.loadAverage.join(' / ')} |`,
    ].join('\n');
    return { summary, details };
  } finally {
    await webhooks.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Events of one market each; at the second sweep every tenth market has resolved. */
function catalogAt(sweep: number, markets: number): Event[] {
  return Array.from({ length: markets }, (_, index) => ({
    id: `e${index}`,
    title: `Event ${index}`,
    description: '',
    slug: `event-${index}`,
    volume24h: index,
    url: `https://example.test/e${index}`,
    markets: [
      {
        marketId: `m${index}`,
        title: `Market ${index}`,
        description: '',
        outcomes: [
          { outcomeId: `m${index}-yes`, label: 'Yes', price: 0.5 },
          { outcomeId: `m${index}-no`, label: 'No', price: 0.5 },
        ],
        volume24h: index,
        liquidity: 1,
        url: `https://example.test/m${index}`,
        status: sweep === 1 && index % 10 === 0 ? 'resolved' : 'active',
      },
    ],
  }));
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('webhook bench: deliveries did not arrive in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
