/**
 * Methods pmxt's clients (pmxtjs 2.41) call that the gateway offers on no
 * venue, each with the reason a caller is given with NOT_SUPPORTED (instead
 * of an unknown method's 404), so a pmxt program learns why.
 */
export const unofferedMethods: Readonly<Record<string, string>> = {
  callApi: 'venue-native endpoints by operationId are not exposed: use the unified methods',
  watchAddress: 'no adapter streams a wallet’s activity yet',
  unwatchAddress: 'no adapter streams a wallet’s activity yet',
  firehose: 'the all-venue book firehose is a pmxt hosted feature',
  fetchMarketMatches: 'cross-venue market matching is a pmxt hosted feature; the Router (/v0/events) searches every venue',
  fetchEventMatches: 'cross-venue event matching is a pmxt hosted feature; the Router (/v0/events) searches every venue',
  fetchMatches: 'cross-venue matching is a pmxt hosted feature',
  fetchMatchedMarkets: 'cross-venue matching is a pmxt hosted feature',
  fetchMatchedPrices: 'cross-venue matching is a pmxt hosted feature',
  fetchRelatedMarkets: 'cross-venue matching is a pmxt hosted feature',
  compareMarketPrices: 'cross-venue price comparison is a pmxt hosted feature',
  fetchHedges: 'hedge discovery is a pmxt hosted feature',
  fetchArbitrage: 'arbitrage discovery is a pmxt hosted feature',
  testDummyMethod: 'a placeholder of pmxt’s code generator, not a venue method',
};
