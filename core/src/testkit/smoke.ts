import { isPredgateError } from '../errors.js';
import { createHttpClientFactory } from '../http/venue-http-client.js';
import type { VenueAdapter } from '../methods/adapter.js';
import type { Credentials, Event, Market } from '../model/index.js';
import type { AdapterPlugin } from '../plugin.js';
import { silentLogger, systemClock } from '../runtime.js';
import { checkResult } from './invariants.js';

export interface SmokeOptions {
  /** The adapter's manifest section (host overrides). */
  config?: Record<string, unknown>;
  /** Real credentials, for the account reads; without them only public reads run. */
  credentials?: Credentials;
  /** Where lines go; the console by default. */
  print?: (line: string) => void;
}

/**
 * A live smoke run against the real venue, for operators (never CI: it needs
 * the network). It makes the public reads the adapter claims, chaining ids from
 * one answer into the next call, and the account reads when credentials are
 * given; each result is checked against the unified model. Nothing here places
 * or cancels an order. Resolves with the number of failed or drifted calls.
 */
export async function runSmoke(plugin: AdapterPlugin, options: SmokeOptions = {}): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  const http = createHttpClientFactory();
  const adapter: VenueAdapter = plugin.create({
    http,
    logger: silentLogger,
    clock: systemClock,
    config: options.config ?? {},
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
  let failures = 0;

  const check = async <T>(method: string, call: (() => Promise<T>) | undefined): Promise<T | undefined> => {
    if (!call) return undefined;
    const started = Date.now();
    try {
      const result = await call();
      const violations = checkResult(method, result);
      const size = Array.isArray(result) ? ` (${result.length} items)` : '';
      if (violations.length === 0) print(`ok    ${method}${size} in ${Date.now() - started} ms`);
      else {
        failures += 1;
        print(`DRIFT ${method}${size}:\n  - ${violations.slice(0, 20).join('\n  - ')}`);
      }
      return result;
    } catch (error) {
      failures += 1;
      print(`FAIL  ${method}: ${isPredgateError(error) ? `${error.code} ${error.message}` : String(error)}`);
      return undefined;
    }
  };
  const bound = <K extends keyof VenueAdapter>(name: K) => adapter[name] as unknown as ((...args: unknown[]) => Promise<unknown>) | undefined;
  const when = <T>(name: keyof VenueAdapter, call: (fn: (...args: unknown[]) => Promise<unknown>) => Promise<unknown>) => {
    const fn = bound(name);
    return fn ? () => call(fn.bind(adapter)) as Promise<T> : undefined;
  };

  print(`${plugin.displayName} (${plugin.id} ${plugin.version})${options.credentials ? ', with credentials' : ''}`);
  try {
    const events =
      (await check<Event[]>(
        'fetchEvents',
        when('fetchEvents', (fn) => fn({ limit: 5 })),
      )) ?? [];
    const event = events.find((candidate) => candidate.markets.length > 0);
    if (event)
      await check(
        'fetchEvent',
        when('fetchEvent', (fn) => fn({ eventId: event.id })),
      );
    const markets =
      (await check<Market[]>(
        'fetchMarkets',
        when('fetchMarkets', (fn) => fn({ limit: 5 })),
      )) ?? [];
    const market = event?.markets[0] ?? markets[0];
    if (market) {
      await check(
        'fetchMarket',
        when('fetchMarket', (fn) => fn({ marketId: market.marketId })),
      );
      const outcome = market.outcomes[0];
      if (outcome) {
        await check(
          'fetchOrderBook',
          when('fetchOrderBook', (fn) => fn(outcome.outcomeId)),
        );
        await check(
          'fetchTrades',
          when('fetchTrades', (fn) => fn(outcome.outcomeId, { limit: 10 })),
        );
        await check(
          'fetchOHLCV',
          when('fetchOHLCV', (fn) => fn(outcome.outcomeId, { resolution: '1h', limit: 24 })),
        );
      }
    }
    await check(
      'fetchSeries',
      when('fetchSeries', (fn) => fn({ limit: 5 })),
    );
    if (options.credentials) {
      await check(
        'fetchBalance',
        when('fetchBalance', (fn) => fn()),
      );
      await check(
        'fetchPositions',
        when('fetchPositions', (fn) => fn()),
      );
      await check(
        'fetchOpenOrders',
        when('fetchOpenOrders', (fn) => fn()),
      );
      await check(
        'fetchMyTrades',
        when('fetchMyTrades', (fn) => fn({ limit: 10 })),
      );
    }
  } finally {
    await adapter.close?.();
    await http.close();
  }
  print(failures === 0 ? 'smoke: every call answered in the unified shape' : `smoke: ${failures} call(s) failed or drifted`);
  return failures;
}
