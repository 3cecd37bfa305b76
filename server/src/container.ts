// tsyringe needs the Reflect metadata API before it loads.
import 'reflect-metadata';
import { container as rootContainer } from 'tsyringe';
import type { DependencyContainer, InjectionToken } from 'tsyringe';
import type { CatalogService } from '@predgate/catalog';
import type { CallAnswerer, Clock, HttpClientFactory, MethodRegistry } from '@predgate/core';
import type { ServerConfig } from './config.js';
import type { RequestGate } from './keys/request-gate.js';
import type { KeyStore } from './keys/key-store.js';
import type { Metrics } from './metrics.js';
import type { Venue } from './venues/venue.js';
import type { VenueDirectory } from './venues/directory.js';
import type { DriftRecorder } from './venues/drift.js';
import type { StreamService } from './streaming/service.js';

/**
 * Explicit injection tokens: registrations never rely on emitted decorator
 * metadata, which tsx and esbuild do not produce.
 */
export const tokens = {
  config: Symbol('ServerConfig') as InjectionToken<ServerConfig>,
  clock: Symbol('Clock') as InjectionToken<Clock>,
  http: Symbol('HttpClientFactory') as InjectionToken<HttpClientFactory>,
  methods: Symbol('MethodRegistry') as InjectionToken<MethodRegistry>,
  keys: Symbol('KeyStore') as InjectionToken<KeyStore>,
  /** The key check and budget every keyed request passes, whichever part of the gateway answers it. */
  requestGate: Symbol('RequestGate') as InjectionToken<RequestGate>,
  metrics: Symbol('Metrics') as InjectionToken<Metrics>,
  venues: Symbol('VenueDirectory') as InjectionToken<VenueDirectory>,
  catalog: Symbol('CatalogService') as InjectionToken<CatalogService>,
  /** Historical books: answers `since`/`until` calls for the venues the archive holds. */
  archive: Symbol('Archive') as InjectionToken<CallAnswerer>,
  drift: Symbol('DriftRecorder') as InjectionToken<DriftRecorder>,
  streams: Symbol('StreamService') as InjectionToken<StreamService>,
};

/** Each enabled venue is registered under its own id. */
export function venueToken(id: string): InjectionToken<Venue> {
  return `venue:${id}`;
}

/** A container per app, so tests (and several gateways in one process) stay apart. */
export function createContainer(): DependencyContainer {
  return rootContainer.createChildContainer();
}
