import { AsyncLocalStorage } from 'node:async_hooks';
import type { PredgateError } from '../errors.js';

/**
 * Drift that does not fail the call: one item of a venue list that Predgate
 * cannot read is left out, and the rest is served. The left-out item must
 * still be seen (metrics, `/v0/status`), so it is reported here as the
 * error it would have been (code EXCHANGE_NOT_AVAILABLE, detail with
 * `drift`, the endpoint, the field and the item's id).
 *
 * Reports go to whoever runs the call: the gateway around each adapter call
 * and each catalog sweep, a test around the call it checks. The sink travels
 * with the call (AsyncLocalStorage), so adapters report through
 * `checkPayload` without threading a callback through every read, and calls
 * made outside any sink drop their reports.
 */

/** Receives a drift report: a PredgateError whose `detail.drift` is true. */
export type DriftSink = (report: PredgateError) => void;

/*
 * Shared through the global symbol registry, like the error brand: an adapter
 * built against another copy of `@predgate/core` reports to the same sinks.
 */
const sinksKey = Symbol.for('predgate.drift-sinks');
const globalSinks = globalThis as typeof globalThis & { [sinksKey]?: AsyncLocalStorage<DriftSink> };
const sinks = (globalSinks[sinksKey] ??= new AsyncLocalStorage<DriftSink>());

/** Runs `work` with `sink` receiving the drift its venue answers report (a sink around it still receives them too). */
export function withDriftSink<T>(sink: DriftSink, work: () => T): T {
  const outer = sinks.getStore();
  return sinks.run(
    outer
      ? (report) => {
          sink(report);
          outer(report);
        }
      : sink,
    work,
  );
}

/** Hands a drift report to the sinks of the call under way. */
export function reportDrift(report: PredgateError): void {
  sinks.getStore()?.(report);
}

/** Runs `work`, also collecting the drift it reports: paging code counts left-out items so a page is not mistaken for the last. */
export async function collectingDrift<T>(work: () => Promise<T>): Promise<{ value: T; reports: PredgateError[] }> {
  const reports: PredgateError[] = [];
  const value = await withDriftSink((report) => reports.push(report), work);
  return { value, reports };
}
