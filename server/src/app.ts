import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Hapi from '@hapi/hapi';
import {
  CatalogService,
  EmbeddedCatalogStore,
  declareCategoryWords,
  MongoCatalogStore,
  MongoSweepLeases,
  routerPackage,
  routerVenuePlugin,
} from '@predgate/catalog';
import type { Server } from '@hapi/hapi';
import { createHttpClientFactory, createMethodRegistry, systemClock } from '@predgate/core';
import type { Clock, Credentials } from '@predgate/core';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { DependencyContainer } from 'tsyringe';
import { ArchiveService, archiveToken } from './archive/archive-service.js';
import { answerClientErrors } from './client-errors.js';
import type { ServerConfig } from './config.js';
import { createContainer, tokens, venueToken } from './container.js';
import { KeyFile } from './keys/key-file.js';
import { openWebhooks } from './webhooks/gateway.js';
import type { GatewayWebhooks, GatewayWebhooksOptions } from './webhooks/gateway.js';
import { webhooksPlugin } from './webhooks/routes.js';
import { KeyStore } from './keys/key-store.js';
import { MongoKeys } from './keys/mongo-keys.js';
import { mcpPlugin } from './mcp/plugin.js';
import { RequestBudget } from './keys/request-budget.js';
import { RequestGate } from './keys/request-gate.js';
import { createLogger, redactingVenueHeaders } from './logging.js';
import { createMetrics } from './metrics.js';
import { archivePlugin } from './plugins/archive.js';
import { authPlugin } from './plugins/auth.js';
import { docsPlugin } from './plugins/docs.js';
import { errorsPlugin } from './plugins/errors.js';
import { jsonDepthPlugin } from './plugins/json-depth.js';
import { compressMinBytes } from './plugins/json-answers.js';
import { jsonResponsePlugin, liveCompression } from './plugins/json-response.js';
import { leanPathPlugin } from './plugins/lean-path.js';
import { operationsPlugin } from './plugins/operations.js';
import { passThroughPlugin } from './plugins/pass-through.js';
import { requestLoggingPlugin } from './plugins/request-logging.js';
import { routerPlugin } from './plugins/router.js';
import { streamingPlugin } from './plugins/streaming.js';
import { StreamService } from './streaming/service.js';
import { VenueDirectory } from './venues/directory.js';
import { DriftRecorder } from './venues/drift.js';
import { defaultManifest, loadAdapters } from './venues/loader.js';
import { readManifest } from './venues/manifest.js';
import type { Manifest } from './venues/manifest.js';
import { Venue } from './venues/venue.js';

export interface AppOptions {
  config: ServerConfig;
  /** The deployment manifest; otherwise the configured manifest file, otherwise every installed adapter. */
  manifest?: Manifest;
  /** Where adapter packages are looked for besides the gateway's own dependencies; default: the working directory. */
  searchRoots?: string[];
  /** The venues' transport; tests replay recorded traffic through an undici MockAgent. */
  dispatcher?: Dispatcher;
  clock?: Clock;
  logger?: Logger;
  /** Builds `/openapi.json` while the server initializes (the default), not on its first request; tests that never read it turn this off. */
  openApiAtStart?: boolean;
  /** Tests script the book stream webhooks watch; the gateway watches through its streaming hub. */
  watchBook?: GatewayWebhooksOptions['watchBook'];
  /** A venue's failed first sweep is logged at debug: the caller (`predgate serve`) prints the first round as one summary. */
  quietFirstSweeps?: boolean;
}

export interface App {
  server: Server;
  container: DependencyContainer;
  venues: VenueDirectory;
  /** Ingestion and the catalog store; `start()` begins sweeping (the CLI does, tests sweep by hand). */
  catalog: CatalogService;
  /** The order-book archive; `start()` begins recording when the config turns it on. */
  archive: ArchiveService;
  /** Shared venue subscriptions, `/ws` sessions and HTTP watches. */
  streams: StreamService;
  keys: KeyStore;
  /** Webhook subscriptions, deliveries and the sweep and book changes they are told of. */
  webhooks: GatewayWebhooks;
  /** Finishes in-flight requests, then closes adapters and venue connections. */
  stop(): Promise<void>;
}

/** Builds the gateway without opening a socket: tests call `server.inject`, `predgate serve` calls `server.start`. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const searchRoots = options.searchRoots ?? [process.cwd()];
  const manifest = options.manifest ?? (config.manifest ? readManifest(config.manifest) : await defaultManifest(searchRoots));
  const adapters = await loadAdapters(manifest, searchRoots);
  // Loaded first, so every log line, the first included, blanks the headers the adapters declare secret.
  const logger = redactingVenueHeaders(
    options.logger ?? createLogger(config.logLevel),
    adapters.map(({ plugin }) => plugin),
  );
  const http = createHttpClientFactory({ dispatcher: options.dispatcher, logger });
  const container = createContainer();
  container.register(tokens.config, { useValue: config });
  container.register(tokens.clock, { useValue: clock });
  container.register(tokens.http, { useValue: http });
  container.register(tokens.methods, { useValue: createMethodRegistry() });
  const metrics = createMetrics();
  container.register(tokens.metrics, { useValue: metrics });
  const drift = new DriftRecorder(metrics.venueDrift, () => clock.now());
  container.register(tokens.drift, { useValue: drift });
  const stopCountingDrift = drift.countUnscoped(manifest.venues.map((venue) => venue.id));

  const contextFor = (venue: string, venueConfig: Record<string, unknown>) => (credentials?: Credentials) => ({
    http,
    logger: logger.child({ venue }),
    clock,
    config: venueConfig,
    ...(credentials ? { credentials } : {}),
  });
  for (const { venue, plugin } of adapters) {
    container.register(venueToken(venue.id), { useValue: new Venue(plugin, venue.package, contextFor(venue.id, venue.config), config.credentialPool) });
  }
  // Resolved once here, so a missing registration fails the start, not a request.
  const swept = manifest.venues.map((venue) => container.resolve(venueToken(venue.id)));
  // Known before the catalog opens: the events it reads back from its journal are filed by the venues' category words.
  manifest.venues.forEach((venue, index) => declareCategoryWords(venue.id, swept[index]!.shared.profile.categoryWords));

  const store = config.catalogUrl ? new MongoCatalogStore({ url: config.catalogUrl }) : new EmbeddedCatalogStore({ dir: join(config.dataDir, 'catalog') });
  await store.open();
  // Keys live where the catalog does, so every gateway sharing a MongoDB catalog knows the same keys.
  const keyRecords = store instanceof MongoCatalogStore ? new MongoKeys(store.database) : new KeyFile(config.dataDir);
  const keys = await KeyStore.open(keyRecords, { environmentKeys: config.apiKeys, live: true, logger: logger.child({ component: 'keys' }) });
  container.register(tokens.keys, { useValue: keys });
  // Gateways sharing a MongoDB catalog share each key's budget there too.
  const budget = new RequestBudget(config.rateLimit, store instanceof MongoCatalogStore ? { db: store.database } : undefined);
  container.register(tokens.requestGate, { useValue: new RequestGate(keys, budget) });
  // Replicas on one MongoDB catalog share its leases: one sweeper per venue, one sender of webhooks.
  const replicas =
    store instanceof MongoCatalogStore
      ? { leases: new MongoSweepLeases(store.database), holder: replicaId(), leaseMs: (config.catalog.leaseSeconds ?? 30) * 1000 }
      : undefined;
  const catalog = new CatalogService({
    store,
    venues: manifest.venues.map((entry, index) => ({ id: entry.id, adapter: swept[index]!.shared, ...entry.catalog })),
    clock,
    logger: logger.child({ component: 'catalog' }),
    intervalMs: config.catalog.intervalSeconds * 1000,
    freshForMs: config.catalog.freshForSeconds * 1000,
    concurrency: config.catalog.concurrency,
    pageSize: config.catalog.pageSize,
    onSweepError: (venue, error) => drift.record(venue, error),
    // Sweeps start after createApp returns, by when the webhooks below are open.
    onSweepCommitted: (venue, sweep) => void webhooks.sweeps.sweepCommitted(venue, sweep.sweepId),
    onDrift: (venue, report) => drift.record(venue, report),
    // Gateways sharing a MongoDB catalog elect one sweeper per venue there and serve what it writes.
    ...(replicas ? { replicas } : {}),
    quietFirstRound: options.quietFirstSweeps ?? false,
  });
  // The Router is a venue over the catalog: it answers /api/router/* through the ordinary pass-through.
  const routerOverCatalog = routerVenuePlugin(store);
  const router = new Venue(routerOverCatalog, routerPackage, contextFor(routerOverCatalog.id, {}), config.credentialPool);
  const venues = new VenueDirectory([...swept, router]);
  container.register(tokens.venues, { useValue: venues });
  await catalog.load();
  container.register(tokens.catalog, { useValue: catalog });
  const archive = await ArchiveService.open({ config, store, logger });
  archive.registerMetrics(container.resolve(tokens.metrics).registry);
  container.register(archiveToken, { useValue: archive });
  container.register(tokens.archive, { useValue: archive });

  const streams = new StreamService({
    config: config.streaming,
    venues,
    methods: container.resolve(tokens.methods),
    keys,
    gate: container.resolve(tokens.requestGate),
    metrics,
    logger: logger.child({ component: 'streaming' }),
  });
  container.register(tokens.streams, { useValue: streams });
  const webhooks: GatewayWebhooks = await openWebhooks({
    dataDir: config.dataDir,
    settings: config.webhooks,
    catalog,
    venues,
    hub: streams.hub,
    clock,
    logger: logger.child({ component: 'webhooks' }),
    ...(options.watchBook ? { watchBook: options.watchBook } : {}),
    ...(replicas && store instanceof MongoCatalogStore ? { shared: { ...replicas, db: store.database } } : {}),
  });

  const server = Hapi.server({
    port: config.port,
    host: config.host,
    router: { stripTrailingSlash: true },
    routes: { json: { escape: false }, compression: liveCompression },
    compression: { minBytes: compressMinBytes },
  });
  await server.register([
    { plugin: requestLoggingPlugin, options: { logger, ignorePaths: ['/health'] } },
    { plugin: errorsPlugin },
    { plugin: jsonDepthPlugin },
    { plugin: jsonResponsePlugin, options: { cacheBytes: 64 * 1024 * 1024, cacheSeconds: 10 } },
    { plugin: authPlugin, options: { container } },
    { plugin: leanPathPlugin, options: { container, logger } },
    { plugin: operationsPlugin, options: { container } },
    { plugin: passThroughPlugin, options: { container } },
    { plugin: streamingPlugin, options: { container } },
    { plugin: archivePlugin, options: { container } },
    { plugin: routerPlugin, options: { container } },
    { plugin: docsPlugin, options: { container, buildAtStart: options.openApiAtStart ?? true } },
    { plugin: mcpPlugin, options: { container } },
    { plugin: webhooksPlugin, options: { webhooks: webhooks.service } },
  ]);
  answerClientErrors(server.listener, logger, (reason) => metrics.refusedRequests.inc({ reason }));
  await server.initialize();

  return {
    server,
    container,
    venues,
    catalog,
    archive,
    streams,
    keys,
    webhooks,
    async stop() {
      await server.stop({ timeout: 10_000 });
      await webhooks.close();
      await keys.close();
      await archive.stop();
      await catalog.stop();
      await store.close();
      await Promise.all(venues.all().map((venue) => venue.close()));
      await http.close();
      stopCountingDrift();
    },
  };
}

/** This process among the replicas sharing a catalog: readable in the leases and sweep records, unique however many run on a host. */
function replicaId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}
