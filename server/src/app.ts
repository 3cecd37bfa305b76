import { join } from 'node:path';
import Hapi from '@hapi/hapi';
import { CatalogService, EmbeddedCatalogStore, MongoCatalogStore } from '@predgate/catalog';
import type { Request, Server } from '@hapi/hapi';
import { createHttpClientFactory, createMethodRegistry, systemClock } from '@predgate/core';
import type { Clock, Credentials } from '@predgate/core';
import hapiPino from 'hapi-pino';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { DependencyContainer } from 'tsyringe';
import { ArchiveService, archiveToken } from './archive/archive-service.js';
import type { ServerConfig } from './config.js';
import { createContainer, tokens, venueToken } from './container.js';
import { KeyStore } from './keys/key-store.js';
import { createLogger } from './logging.js';
import { createMetrics } from './metrics.js';
import { archivePlugin } from './plugins/archive.js';
import { authPlugin } from './plugins/auth.js';
import { errorsPlugin } from './plugins/errors.js';
import { operationsPlugin } from './plugins/operations.js';
import { passThroughPlugin } from './plugins/pass-through.js';
import { routerPlugin } from './plugins/router.js';
import { VenueDirectory } from './venues/directory.js';
import { installedAdaptersManifest, loadAdapters } from './venues/loader.js';
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
}

export interface App {
  server: Server;
  container: DependencyContainer;
  venues: VenueDirectory;
  /** Ingestion and the catalog store; `start()` begins sweeping (the CLI does, tests sweep by hand). */
  catalog: CatalogService;
  /** The order-book archive; `start()` begins recording when the config turns it on. */
  archive: ArchiveService;
  keys: KeyStore;
  /** Finishes in-flight requests, then closes adapters and venue connections. */
  stop(): Promise<void>;
}

/** Builds the gateway without opening a socket: tests call `server.inject`, `predgate serve` calls `server.start`. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const searchRoots = options.searchRoots ?? [process.cwd()];
  const http = createHttpClientFactory({ dispatcher: options.dispatcher, logger });
  const container = createContainer();
  container.register(tokens.config, { useValue: config });
  container.register(tokens.logger, { useValue: logger });
  container.register(tokens.clock, { useValue: clock });
  container.register(tokens.http, { useValue: http });
  container.register(tokens.methods, { useValue: createMethodRegistry() });
  container.register(tokens.keys, { useValue: KeyStore.open(config.dataDir, config.apiKeys) });
  container.register(tokens.metrics, { useValue: createMetrics() });

  const manifest =
    options.manifest ?? (config.manifest ? readManifest(config.manifest) : await installedAdaptersManifest([gatewayRoot, ...searchRoots]));
  for (const { venue, plugin } of await loadAdapters(manifest, searchRoots)) {
    const contextFor = (credentials?: Credentials) => ({
      http,
      logger: logger.child({ venue: venue.id }),
      clock,
      config: venue.config,
      ...(credentials ? { credentials } : {}),
    });
    container.register(venueToken(venue.id), { useValue: new Venue(plugin, venue.package, contextFor, config.credentialPool) });
  }
  // Resolved once here, so a missing registration fails the start, not a request.
  const venues = new VenueDirectory(manifest.venues.map((venue) => container.resolve(venueToken(venue.id))));
  container.register(tokens.venues, { useValue: venues });

  const store = config.catalogUrl ? new MongoCatalogStore({ url: config.catalogUrl }) : new EmbeddedCatalogStore({ dir: join(config.dataDir, 'catalog') });
  await store.open();
  const catalog = new CatalogService({
    store,
    venues: manifest.venues.map((entry) => ({ id: entry.id, adapter: venues.get(entry.id)!.shared, ...entry.catalog })),
    clock,
    logger: logger.child({ component: 'catalog' }),
    intervalMs: config.catalog.intervalSeconds * 1000,
    freshForMs: config.catalog.freshForSeconds * 1000,
    concurrency: config.catalog.concurrency,
    pageSize: config.catalog.pageSize,
  });
  await catalog.load();
  container.register(tokens.catalog, { useValue: catalog });
  const archive = await ArchiveService.open({ config, store, logger });
  archive.registerMetrics(container.resolve(tokens.metrics).registry);
  container.register(archiveToken, { useValue: archive });

  const server = Hapi.server({
    port: config.port,
    host: config.host,
    router: { stripTrailingSlash: true },
    routes: { json: { escape: false } },
  });
  await server.register([
    {
      plugin: hapiPino,
      options: {
        instance: logger,
        ignorePaths: ['/health'],
        logRequestStart: false,
        // Small per-request bindings: pino serialises them when each request's child logger is made,
        // and request headers (which carry API keys) then never reach a log line at all.
        getChildBindings: (request: Request) => ({ requestId: request.info.id, method: request.method, path: request.path }),
      },
    },
    { plugin: errorsPlugin },
    { plugin: authPlugin, options: { container } },
    { plugin: operationsPlugin, options: { container } },
    { plugin: passThroughPlugin, options: { container } },
    { plugin: archivePlugin, options: { container } },
    { plugin: routerPlugin, options: { container } },
  ]);
  await server.initialize();

  return {
    server,
    container,
    venues,
    catalog,
    archive,
    keys: container.resolve(tokens.keys),
    async stop() {
      await server.stop({ timeout: 10_000 });
      await archive.stop();
      await catalog.stop();
      await store.close();
      await Promise.all(venues.all().map((venue) => venue.close()));
      await http.close();
    },
  };
}

/** The gateway package's own folder, whose dependencies are the adapters installed with it. */
const gatewayRoot = new URL('..', import.meta.url).pathname;
