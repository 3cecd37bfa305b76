/**
 * The adapter authoring kit: what a venue adapter is written with. An
 * adapter's `index.ts` is a `definePlugin` call; its methods are an object
 * literal checked by `defineAdapter` against the core method list; its reads
 * check venue payloads with `checkPayload` and parse values with the readers
 * here, so every adapter means the same thing by a missing value.
 */
export { bindContext, definePlugin, defineAdapter } from './define.js';
export type { BoundMethods, DefinedAdapter, PluginDefinition } from './define.js';
export { checkPayload, venueValue } from './payload.js';
export { addUnscopedDriftSink, collectingDrift, reportDrift, withDriftSink } from './drift.js';
export type { DriftSink } from './drift.js';
export type { PayloadSource } from './payload.js';
export { compact, complement, fromBaseUnits, percentToFraction, pick, roundTo, text, toEpochMs, toFraction, toIsoDate, toList, toNumber } from './values.js';
export { invalidArgument, missingCredentials, notSupported } from './errors.js';
export { assertReachable, collectCursorPages, collectNumberedPages, collectOffsetPages, collectPages } from './paging.js';
export type { CollectOptions, OffsetPaging, Page as VenuePage } from './paging.js';
export { bucketCandles, mergeCandles, resolutionMs } from './candles.js';
export { clobAuthMessage, clobAuthTypes, ctfOrderTypes } from './ctf-exchange.js';
export type { CtfOrder } from './ctf-exchange.js';
export type { PricePoint } from './candles.js';
export { invertBinaryBook, priceIndex } from './books.js';
export { inCatalogOrder } from './order.js';
export { socketUrl, streamConfig, unlessMissing, venueUrl } from './config.js';
export type { StreamConfig } from './config.js';
