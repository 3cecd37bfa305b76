import { bindContext, defineAdapter } from '@predgate/core';
import type { AdapterContext } from '@predgate/core';
import { createOrder, fetchOrder } from './account/bets.js';
import { fetchBalance, fetchPositions } from './account/wallet.js';
import { solanaRpc } from './api/client.js';
import type { BaoziConfig } from './config.js';
import { venueId } from './venue.js';
import type { BaoziContext } from './context.js';
import { mapError } from './errors.js';
import { fetchEvents, fetchMarkets } from './reads/markets.js';

/** The public mainnet RPC allows about 100 requests per 10 seconds per IP (less for getProgramAccounts). */
const rateLimit = { requests: 40, intervalMs: 10_000 };

const irrevocable = 'Baozi bets are pari-mutuel stakes, irrevocable once the transaction lands: there is nothing to cancel';
const noTape = 'the chain keeps pools, not a trade tape: trades and prices over time need an indexer of the program’s transactions';
const notYet =
  'not implemented yet: a built Solana transaction expires with its blockhash within about a minute, so bets are signed and sent in one step by createOrder';

/**
 * Baozi: pari-mutuel pools on Solana, read straight from the program's
 * accounts. Each market is an event of its own; prices are pool shares.
 */
export function createBaoziAdapter(context: AdapterContext, config: BaoziConfig) {
  const http = context.http({ venue: venueId, rateLimit, mapError });
  const ctx: BaoziContext = {
    rpc: solanaRpc(http, config.rpcUrl),
    credentials: context.credentials,
    logger: context.logger,
    now: () => context.clock.now(),
    listCache: undefined,
  };

  return defineAdapter({
    id: venueId,
    profile: {
      displayName: 'Baozi',
      hosts: { rpc: config.rpcUrl, web: 'https://baozi.bet' },
      rateLimit,
      credentials: { required: [], optional: ['walletAddress', 'privateKey'] },
      unsupported: {
        fetchOrderBook: 'Baozi is pari-mutuel: stakes go into pools and there are no resting orders, so there is no order book',
        fetchOrderBooks: 'Baozi is pari-mutuel: stakes go into pools and there are no resting orders, so there is no order book',
        fetchTrades: `Baozi: ${noTape}`,
        fetchOHLCV: `Baozi: ${noTape}`,
        fetchSeries: 'Baozi has no series: each market stands alone',
        fetchEventMetadata: 'Baozi keeps no event metadata on chain (its off-chain metadata endpoint is not documented)',
        buildOrder: notYet,
        submitOrder: notYet,
        cancelOrder: irrevocable,
        fetchOpenOrders: 'Baozi bets go straight into the pool: there are never open orders',
        fetchClosedOrders: 'Baozi keeps no order history on chain; bets are transactions, found only through an indexer',
        fetchAllOrders: 'Baozi keeps no order history on chain; bets are transactions, found only through an indexer',
        fetchMyTrades: 'Baozi keeps no trade history on chain; bets are transactions, found only through an indexer',
        watchOrderBook: 'Baozi is pari-mutuel: there is no order book to stream (pool totals change on chain, read by fetchMarkets)',
        watchOrderBooks: 'Baozi is pari-mutuel: there is no order book to stream (pool totals change on chain, read by fetchMarkets)',
        watchTrades: `Baozi has no trade feed: ${noTape}`,
      },
    },
    ...bindContext(ctx, { fetchEvents, fetchMarkets, fetchPositions, createOrder, fetchOrder, fetchBalance }),
  });
}
