import { bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { fetchPositions } from './account/positions.js';
import { suibetsApi } from './api/client.js';
import type { SuibetsConfig } from './config.js';
import { venueId } from './venue.js';
import type { SuibetsContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents } from './reads/events.js';
import { fetchMarkets } from './reads/markets.js';

/** The server's global limiter: 100 requests per minute per IP on `/api/`. */
const rateLimit = { requests: 100, intervalMs: 60_000 };

const offersArePositions = 'the venue lists a wallet’s offers with its positions (fetchPositions), not as orders';
const onChainOnly =
  'an offer is created, taken or cancelled by an on-chain Sui transaction signed in the user’s wallet, which the server only verifies; a gateway cannot sign it for the user';

/**
 * SuiBets, read-only: offers are markets, grouped into events by fixture.
 * fetchEvent and fetchMarket come from core over these lists.
 */
export function createSuibetsAdapter(context: AdapterContext, config: SuibetsConfig) {
  const ctx: SuibetsContext = {
    api: suibetsApi(context.http({ venue: venueId, rateLimit, mapError }), config.baseUrl),
    walletAddress: context.credentials?.walletAddress,
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'SuiBets',
      hosts: { rest: config.baseUrl },
      rateLimit,
      credentials: { required: [], optional: ['walletAddress'] },
      unsupported: {
        createOrder: onChainOnly,
        buildOrder: onChainOnly,
        submitOrder: onChainOnly,
        cancelOrder: onChainOnly,
        fetchOpenOrders: offersArePositions,
        fetchBalance: 'balances are Sui wallet balances on chain; the venue’s API does not report them',
        fetchOrderBook:
          'an offer is one fixed-odds quote, not a book: its price is the outcome price and its remaining stake the market liquidity; the venue’s event book mixes the picks of different markets',
        fetchTrades: 'the venue publishes no trade tape',
        fetchOHLCV: 'the venue publishes no price history; offer odds are fixed',
        fetchOrderBooks: 'an offer is one fixed-odds quote, not a book (see fetchOrderBook)',
        watchOrderBook: 'the venue has no book to stream (an offer is one fixed-odds quote)',
        watchOrderBooks: 'the venue has no book to stream (an offer is one fixed-odds quote)',
        watchTrades: 'the venue publishes no trade tape; its offer-update broadcast is undocumented',
        fetchOrder: offersArePositions,
        fetchClosedOrders: offersArePositions,
        fetchAllOrders: offersArePositions,
        fetchMyTrades: 'a taken offer is a position (fetchPositions); the venue’s API lists no fills',
        fetchSeries: 'the venue has no series',
        fetchEventMetadata: 'not offered: what the venue publishes about an event comes with it from fetchEvent',
      },
    },
    ...bindContext(ctx, { fetchEvents, fetchMarkets, fetchPositions }),
  });
}
