/**
 * Live smoke test against the real venue. Never run in CI: it needs the
 * network and, for the account reads, real keys.
 *
 *   pnpm --filter @predgate/adapter-kalshi smoke [kalshi|kalshi-demo]
 *
 * It makes a few public reads (and, when credentials are in the environment,
 * the account reads), checks every result against the unified model with the
 * test kit's `checkResult`, and prints what drifted. Production and demo keys
 * are kept in separate variables, as each only works against its own hosts:
 *   KALSHI_API_KEY, KALSHI_PRIVATE_KEY (or KALSHI_PRIVATE_KEY_PATH)
 *   KALSHI_DEMO_API_KEY, KALSHI_DEMO_PRIVATE_KEY (or KALSHI_DEMO_PRIVATE_KEY_PATH)
 * Nothing here places or cancels orders.
 */
import { readFileSync } from 'node:fs';
import { createHttpClientFactory, isPredgateError, silentLogger, systemClock } from '@predgate/core';
import type { Credentials, Event } from '@predgate/core';
import { checkResult } from '@predgate/core/testkit';
import { plugins } from '../src/index.js';

const venue = process.argv[2] ?? 'kalshi';
const plugin = plugins.find((candidate) => candidate.id === venue);
if (!plugin) {
  console.error(`usage: smoke [${plugins.map((candidate) => candidate.id).join('|')}]`);
  process.exit(2);
}

const credentials = credentialsFromEnvironment(venue === 'kalshi-demo' ? 'KALSHI_DEMO' : 'KALSHI');
const http = createHttpClientFactory();
const adapter = plugin.create({ http, logger: silentLogger, clock: systemClock, config: {}, ...(credentials ? { credentials } : {}) });
let failures = 0;

async function check<T>(method: string, call: () => Promise<T>): Promise<T | undefined> {
  const started = Date.now();
  try {
    const result = await call();
    const violations = checkResult(method, result);
    const size = Array.isArray(result) ? ` (${result.length} items)` : '';
    if (violations.length === 0) {
      console.log(`ok    ${method}${size} in ${Date.now() - started} ms`);
    } else {
      failures += 1;
      console.log(`DRIFT ${method}${size}:\n  - ${violations.slice(0, 20).join('\n  - ')}`);
    }
    return result;
  } catch (error) {
    failures += 1;
    console.log(`FAIL  ${method}: ${isPredgateError(error) ? `${error.code} ${error.message}` : String(error)}`);
    return undefined;
  }
}

console.log(`${plugin.displayName} at ${adapter.profile.hosts.rest}${credentials ? ', with credentials' : ''}`);
const events = (await check('fetchEvents', () => adapter.fetchEvents({ limit: 5 }))) ?? [];
await check('fetchEvents', () => adapter.fetchEvents({ status: 'all', limit: 3 }));
const page = await check('fetchEventsPaginated', () => adapter.fetchEventsPaginated({ limit: 3 }));
if (page?.nextCursor) await check('fetchEventsPaginated', () => adapter.fetchEventsPaginated({ limit: 3, cursor: page.nextCursor }));

const event: Event | undefined = events.find((candidate) => candidate.markets.length > 0);
const market = event?.markets[0];
if (event && market) {
  await check('fetchEvent', () => adapter.fetchEvent({ eventId: event.id }));
  await check('fetchEventMetadata', () => adapter.fetchEventMetadata(event.id));
  await check('fetchMarkets', () => adapter.fetchMarkets({ eventId: event.id, limit: 3 }));
  await check('fetchMarket', () => adapter.fetchMarket({ marketId: market.marketId }));
  await check('fetchOrderBook', () => adapter.fetchOrderBook(market.marketId, 10, { side: 'yes' }));
  await check('fetchOrderBooks', () => adapter.fetchOrderBooks(market.outcomes.map((outcome) => outcome.outcomeId)));
  await check('fetchTrades', () => adapter.fetchTrades(market.marketId, { limit: 20 }));
  await check('fetchOHLCV', () => adapter.fetchOHLCV(market.marketId, { resolution: '1h', limit: 24 }));
  await check('fetchOHLCV', () => adapter.fetchOHLCV(`${market.marketId}-NO`, { resolution: '15m', limit: 8 }));
  const series = event.sourceMetadata?.series_ticker;
  if (typeof series === 'string') await check('fetchSeries', () => adapter.fetchSeries({ id: series }));
} else {
  failures += 1;
  console.log('FAIL  no event with markets to read further');
}

if (credentials) {
  await check('fetchBalance', () => adapter.fetchBalance());
  await check('fetchPositions', () => adapter.fetchPositions());
  await check('fetchOpenOrders', () => adapter.fetchOpenOrders());
  await check('fetchAllOrders', () => adapter.fetchAllOrders({ limit: 10 }));
  await check('fetchMyTrades', () => adapter.fetchMyTrades({ limit: 10 }));
}

await http.close();
console.log(failures === 0 ? 'all reads match the unified model' : `${failures} read(s) failed or drifted`);
process.exit(failures === 0 ? 0 : 1);

function credentialsFromEnvironment(prefix: string): Credentials | undefined {
  const apiKey = process.env[`${prefix}_API_KEY`];
  const keyPath = process.env[`${prefix}_PRIVATE_KEY_PATH`];
  const privateKey = process.env[`${prefix}_PRIVATE_KEY`] ?? (keyPath ? readFileSync(keyPath, 'utf8') : undefined);
  return apiKey && privateKey ? { apiKey, privateKey } : undefined;
}
