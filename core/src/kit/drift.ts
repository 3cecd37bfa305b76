import { AsyncLocalStorage } from 'node:async_hooks';
import type { PredgateError } from '../errors.js';

/**
 * Drift that does not fail the call: one item of a venue list that Predgate
 * cannot read is left out, and the rest is served. The left-out item must
 * still be seen (metrics, `/v0/status`), so it is reported here as the
 * error it would have been (code EXCHANGE_NOT_AVAILABLE, detail with
 * `drift`, the endpoint, the field and the item's id).
 *
 * Reports go to whoever runs the call. Work that collects its own reports
 * (a catalog sweep, a page of a listing, a test around the call it checks)
 * runs in a scope (`withDriftSink`, `collectingDrift`) that travels with it
 * (AsyncLocalStorage), so adapters report through `checkPayload` without
 * threading a callback through every read. A report made outside any scope
 * goes to the unscoped sinks: the gateway counts a live call's drift there,
 * by the venue the report names.
 *
 * The storage is on only while a scope is open: on Node 20 an
 * AsyncLocalStorage in use hooks every promise the process makes, which cost
 * a live call about a tenth of its CPU when every call opened a scope.
 */

/** Receives a drift report: a PredgateError whose `detail.drift` is true. */
export type DriftSink = (report: PredgateError) => void;

/**
 * The sinks every copy of `@predgate/core` in the process shares, through the
 * global symbol registry (like the error brand), so an adapter built against
 * another copy reports to the same sinks. Older copies held an
 * AsyncLocalStorage there and call only its `getStore()` and `run()`, which
 * this keeps: `getStore()` outside any scope answers the unscoped sinks.
 */
interface DriftSinks {
  readonly scopes: AsyncLocalStorage<DriftSink>;
  /** Scopes not yet closed: at 0 the storage is switched off, and with it the hook on every promise. */
  open: number;
  readonly unscoped: Set<DriftSink>;
  /** The sink a report made now goes to. */
  getStore(): DriftSink;
  run<T>(sink: DriftSink, work: () => T): T;
}

const sinksKey = Symbol.for('predgate.drift-sinks');
const globalSinks = globalThis as typeof globalThis & { [sinksKey]?: Partial<DriftSinks> };
const sinks = (globalSinks[sinksKey] = isShared(globalSinks[sinksKey]) ? globalSinks[sinksKey] : sharedSinks());

function sharedSinks(): DriftSinks {
  const shared: DriftSinks = {
    scopes: new AsyncLocalStorage<DriftSink>(),
    open: 0,
    unscoped: new Set(),
    getStore: () => shared.scopes.getStore() ?? toUnscoped,
    run: (sink, work) => inScope(sink, work),
  };
  const toUnscoped: DriftSink = (report) => {
    for (const sink of shared.unscoped) sink(report);
  };
  return shared;
}

function isShared(found: Partial<DriftSinks> | undefined): found is DriftSinks {
  return found?.unscoped instanceof Set;
}

/** Runs `work` with `sink` receiving the drift its venue answers report (a scope around it still receives them too). */
export function withDriftSink<T>(sink: DriftSink, work: () => T): T {
  const outer = sinks.scopes.getStore();
  return inScope(
    outer
      ? (report) => {
          sink(report);
          outer(report);
        }
      : sink,
    work,
  );
}

/** Hands a drift report to the sinks of the scope under way, or, outside any, to the unscoped sinks. */
export function reportDrift(report: PredgateError): void {
  sinks.getStore()(report);
}

/**
 * Runs `work`, also collecting the drift it reports: paging code counts left-out items so a page is not mistaken
 * for the last. The reports still go where they would have gone without it (the scope around it, or the unscoped sinks).
 */
export async function collectingDrift<T>(work: () => Promise<T>): Promise<{ value: T; reports: PredgateError[] }> {
  const reports: PredgateError[] = [];
  const passOn = sinks.getStore();
  const value = await inScope((report) => {
    reports.push(report);
    passOn(report);
  }, work);
  return { value, reports };
}

/** Adds a sink for the reports made outside any scope; the returned function removes it. */
export function addUnscopedDriftSink(sink: DriftSink): () => void {
  sinks.unscoped.add(sink);
  return () => void sinks.unscoped.delete(sink);
}

/** Runs `work` in a scope of `sink`, closed when `work` returns or, for a promise, settles. */
function inScope<T>(sink: DriftSink, work: () => T): T {
  sinks.open += 1;
  let result: T;
  try {
    result = sinks.scopes.run(sink, work);
  } catch (error) {
    closeScope();
    throw error;
  }
  if (isThenable(result)) result.then(closeScope, closeScope);
  else closeScope();
  return result;
}

function closeScope(): void {
  sinks.open -= 1;
  if (sinks.open === 0) sinks.scopes.disable();
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
