import { join } from 'node:path';
import type { CatalogService } from '@predgate/catalog';
import type { Clock, Logger } from '@predgate/core';
import type { StreamHub } from '../streaming/hub.js';
import type { VenueDirectory } from '../venues/directory.js';
import { BookChanges, hubBookWatch } from './book-changes.js';
import type { WatchBook } from './book-changes.js';
import { WebhookService } from './service.js';
import type { SharedWebhooks, WebhookSettings } from './service.js';
import { SweepChanges } from './sweep-changes.js';

export interface GatewayWebhooks {
  service: WebhookService;
  sweeps: SweepChanges;
  books: BookChanges;
  close(): Promise<void>;
}

export interface GatewayWebhooksOptions {
  dataDir: string;
  settings: WebhookSettings & { signingKey?: string };
  catalog: CatalogService;
  venues: VenueDirectory;
  hub: StreamHub;
  clock: Clock;
  logger: Logger;
  /** Tests script a book stream here; the gateway watches through the hub. */
  watchBook?: WatchBook;
  /** Replicas on one MongoDB catalog share their webhooks there. */
  shared?: SharedWebhooks;
}

/**
 * The webhook service and the two sources of its notifications, over the
 * gateway's catalog and streaming hub. Sweeps committed while the gateway was
 * down (or before its last diff was saved) are diffed at once.
 */
export async function openWebhooks(options: GatewayWebhooksOptions): Promise<GatewayWebhooks> {
  const { venues, logger } = options;
  const dir = join(options.dataDir, 'webhooks');
  const service = await WebhookService.open({
    dir,
    settings: options.settings,
    signingKey: options.settings.signingKey,
    shared: options.shared,
    clock: options.clock,
    logger,
  });
  const streamsBooks = (venue: string) => Boolean(venues.get(venue)?.capabilities.watchOrderBook);
  const sweeps = new SweepChanges({ dir: join(dir, 'snapshots'), store: options.catalog.store, webhooks: service, streamsBooks, logger });
  const books = new BookChanges({ webhooks: service, watch: options.watchBook ?? hubBookWatch(options.hub, venues), streamsBooks, rewatchMs: 30_000, logger });
  for (const { venue, lastSweep } of options.catalog.status()) if (lastSweep) void sweeps.sweepCommitted(venue, lastSweep.sweepId);
  return {
    service,
    sweeps,
    books,
    async close() {
      books.close();
      await sweeps.idle();
      await service.close();
    },
  };
}
