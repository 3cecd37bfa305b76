// A pmxt program as its users write it, run in a child process by
// pmxtjs-client.e2e.test.ts: reads, an error, watches, unwatch and close, then
// it prints what it saw and must end by itself. `node client.mjs cjs` uses
// pmxtjs's CommonJS build (which streams over /ws), `esm` its ES module build
// (which, without `require`, takes the HTTP fallback).
import { createRequire } from 'node:module';
import esm from 'pmxtjs';

const pmxt = process.argv[2] === 'cjs' ? createRequire(import.meta.url)('pmxtjs') : esm;
const { PMXT_BASE_URL: baseUrl, PMXT_API_KEY: pmxtApiKey, OUTCOME_ID: outcomeId } = process.env;

// pmxtjs has no class for the mock venue: its base class names any exchange.
class Mock extends pmxt.Exchange {
  constructor() {
    super('mock', { baseUrl, pmxtApiKey, autoStartServer: false });
  }
}

const venue = new Mock();
const report = {};
const events = await venue.fetchEvents({ limit: 2 });
report.events = events.length;
report.markets = (await venue.fetchMarkets({ limit: 3 })).length;
const page = await venue.fetchMarketsPaginated({ limit: 2 });
report.page = { size: page.data.length, cursor: typeof page.nextCursor === 'string' };
report.loaded = Object.keys(await venue.loadMarkets()).length;
report.book = (await venue.fetchOrderBook(outcomeId)).bids.length;
try {
  await venue.fetchOrderBook('mock-no-such-outcome');
  report.error = 'none';
} catch (error) {
  report.error = { name: error.name, code: error.code };
}
const first = await venue.watchOrderBook(outcomeId);
const second = await venue.watchOrderBook(outcomeId);
report.watched = [first.bids.length > 0, second.bids.length > 0];
report.trades = (await venue.watchTrades(outcomeId)).length > 0;
await venue.unwatchOrderBook(outcomeId);
await venue.close();
console.log(JSON.stringify(report));
