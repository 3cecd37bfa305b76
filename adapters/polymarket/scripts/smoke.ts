/**
 * Live smoke test against the real Polymarket APIs: a few reads, each result
 * checked against the unified model. It prints what drifted (the venue
 * changed a shape the adapter relies on) and exits non-zero if anything did.
 * Never run in CI: `pnpm --filter @predgate/adapter-polymarket smoke`.
 */
import { createHttpClientFactory, isPredgateError, silentLogger, systemClock } from '@predgate/core';
import type { Market } from '@predgate/core';
import { checkResult } from '@predgate/core/testkit';
import plugin from '../src/index.js';

const http = createHttpClientFactory();
const adapter = plugin.create({ http, logger: silentLogger, clock: systemClock, config: {} });
let drifted = 0;

async function step<T>(method: string, call: () => Promise<T>, describe: (result: T) => string): Promise<T | undefined> {
  const started = Date.now();
  try {
    const result = await call();
    const violations = checkResult(method, result);
    const took = `${Date.now() - started} ms`;
    if (violations.length === 0) {
      console.log(`ok     ${method} (${took}): ${describe(result)}`);
    } else {
      drifted += 1;
      console.log(`DRIFT  ${method} (${took}):\n  - ${violations.slice(0, 20).join('\n  - ')}`);
    }
    return result;
  } catch (error) {
    drifted += 1;
    const reason = isPredgateError(error) ? `${error.code}: ${error.message} ${JSON.stringify(error.detail)}` : String(error);
    console.log(`FAILED ${method}: ${reason}`);
    return undefined;
  }
}

const events = await step('fetchEvents', () => adapter.fetchEvents({ limit: 5, sort: 'volume' }), (list) => `${list.length} events, top "${list[0]?.title}"`);
await step('fetchEvents', () => adapter.fetchEvents({ query: 'bitcoin', limit: 3 }), (list) => `search: ${list.map((event) => event.slug).join(', ')}`);
const candidate = events?.flatMap((event) => event.markets).find((market: Market) => market.status === 'active' && market.yes);
if (!candidate?.yes) {
  console.log('FAILED no active binary market in the listing to continue with');
  process.exit(1);
}
const outcomeId = candidate.yes.outcomeId;
await step('fetchMarket', () => adapter.fetchMarket({ marketId: candidate.marketId }), (market) => `${market.marketId} "${market.title}"`);
await step('fetchOrderBook', () => adapter.fetchOrderBook(outcomeId), (book) => `${book.bids.length} bids, ${book.asks.length} asks, best ${book.bids[0]?.price}/${book.asks[0]?.price}`);
await step('fetchTrades', () => adapter.fetchTrades(outcomeId, { limit: 20 }), (trades) => `${trades.length} trades`);
await step('fetchOHLCV', () => adapter.fetchOHLCV(outcomeId, { resolution: '1h', limit: 24 }), (candles) => `${candles.length} hourly candles`);

await http.close();
console.log(drifted === 0 ? 'no drift' : `${drifted} call(s) drifted or failed`);
process.exitCode = drifted === 0 ? 0 : 1;
