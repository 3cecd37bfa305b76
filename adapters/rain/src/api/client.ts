import { PredgateError, checkPayload } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import { pool, poolOf, pools, poolsOf, rpcAnswer, tradeRows, walletRows } from './schemas.js';
import type { PoolState, RawPool, RawTradeRows, RawWalletRows } from './schemas.js';
import { decodeFunctionResult, encodeFunctionData, erc20Abi, parseAbi } from 'viem';
import type { Hex } from 'viem';

/**
 * Rain's three back ends: the REST API (v1) for pools and their options,
 * Arbitrum One JSON-RPC for the pools' on-chain state, and the subgraph
 * (GraphQL on The Graph's gateway) for history.
 */

// --- Pool contract reads -------------------------------------------------

export const poolAbi = parseAbi([
  'function getCurrentPrice(uint256 option) view returns (uint256)',
  'function totalFunds(uint256 option) view returns (uint256)',
  'function allFunds() view returns (uint256)',
  'function totalLiquidity() view returns (uint256)',
  'function endTime() view returns (uint256)',
  'function baseTokenDecimals() view returns (uint256)',
  'function poolState() view returns (uint8)',
  'function winner() view returns (uint256)',
  'function userVotes(uint256 option, address user) view returns (uint256)',
]);

type PoolFunction = (typeof poolAbi)[number]['name'];
const globals = ['allFunds', 'totalLiquidity', 'endTime', 'baseTokenDecimals', 'poolState', 'winner'] as const;

interface Call {
  to: string;
  functionName: PoolFunction;
  args?: readonly [bigint] | readonly [bigint, Hex];
}

/** JSON-RPC batches stay well below what public Arbitrum endpoints accept. */
const maxBatch = 100;

export interface TradeWindow {
  first: number;
  /** Unix seconds. */
  since?: number;
  until?: number;
}

export function rainApi(http: VenueHttpClient, urls: { rest: string; rpc: string; subgraph: string }) {
  const venue = http.venue;
  // Pool totals are integers of base units (18 decimals for RAIN): one sent as a bare number past 2^53 keeps its digits.
  const restGet = (path: string, query?: Record<string, QueryValue>) => http.json({ url: `${urls.rest}${path}`, query, exactIntegers: true });

  /** Sends one batch of encoded calls; per-call errors come back per call, a refused batch is an error of its own. */
  const batch = async (calls: ReadonlyArray<{ to: string; data: Hex }>): Promise<Array<{ result?: Hex; error?: string }>> => {
    const body = calls.map(({ to, data }, index) => ({ jsonrpc: '2.0', id: index + 1, method: 'eth_call', params: [{ to, data }, 'latest'] }));
    // Reads: safe to repeat.
    const answer = await http.json({ method: 'POST', url: urls.rpc, body, idempotent: true });
    if (!Array.isArray(answer)) throw refusedBatch(venue, answer);
    const rows = checkPayload<Array<{ id: number; result?: Hex; error?: { message?: string } }>>(rpcAnswer, answer, { venue, endpoint: 'POST eth_call batch' });
    // Answers are matched by id: providers may reorder them.
    const byId = new Map(rows.map((each) => [each.id, each]));
    return calls.map((_, index) => {
      const found = byId.get(index + 1);
      if (!found) {
        throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue}: the Arbitrum RPC left eth_call ${index + 1} of a batch unanswered`, {
          exchange: venue,
          detail: { endpoint: 'POST eth_call batch', field: `[id=${index + 1}]`, drift: true },
        });
      }
      return found.error ? { error: found.error.message ?? 'error' } : { result: found.result };
    });
  };

  const call = async (calls: readonly Call[]) => {
    const answers: Array<{ result?: Hex; error?: string }> = [];
    for (let start = 0; start < calls.length; start += maxBatch) {
      const encoded = calls
        .slice(start, start + maxBatch)
        .map((each) => ({ to: each.to, data: encodeFunctionData({ abi: poolAbi, functionName: each.functionName, args: each.args } as never) }));
      answers.push(...(await batch(encoded)));
    }
    return answers.map((answer, index) => {
      const { functionName } = calls[index]!;
      if (answer.result === undefined || answer.result === '0x') return { error: answer.error ?? 'empty result' };
      try {
        return { value: BigInt(decodeFunctionResult({ abi: poolAbi, functionName, data: answer.result } as never) as bigint | number) };
      } catch {
        return { error: `${functionName} answered ${answer.result.slice(0, 80)}` };
      }
    });
  };

  const graph = (subgraph: { key: string }, query: string) =>
    http.json({ method: 'POST', url: urls.subgraph, body: { query }, headers: { authorization: `Bearer ${subgraph.key}` }, idempotent: true });

  /** A read the answer cannot do without: its failure fails the call, naming the read. */
  const required = (each: { value?: bigint; error?: string }, contract: string, field: string): bigint => {
    if (each.value !== undefined) return each.value;
    throw new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue}: ${field} of pool ${contract} failed on Arbitrum: ${each.error!.slice(0, 200)}`, {
      exchange: venue,
      detail: { endpoint: 'POST eth_call batch', contract, field, venueMessage: each.error!.slice(0, 200) },
    });
  };

  return {
    /** One page (Rain's `offset` is a 1-based page number). */
    pools: async (query: Record<string, QueryValue>) =>
      checkPayload<RawPool[]>(pools, poolsOf(await restGet('/pools/public-pools', query)), {
        venue,
        endpoint: 'GET /pools/public-pools',
      }),
    pool: async (id: string) =>
      checkPayload<RawPool>(pool.required(), poolOf(await restGet(`/pools/pool/${encodeURIComponent(id)}`)), { venue, endpoint: 'GET /pools/pool/{id}' }),

    /**
     * Every pool's state in as few JSON-RPC batches as fit: per pool, the price
     * and funds of each option, then its totals. A failed per-option read
     * leaves that value unknown; a failed total fails the call.
     */
    async poolStates(pools: ReadonlyArray<{ contractAddress: string; options: number[] }>): Promise<PoolState[]> {
      const calls: Call[] = pools.flatMap(({ contractAddress: to, options }) => [
        ...options.map((choice): Call => ({ to, functionName: 'getCurrentPrice', args: [BigInt(choice)] })),
        ...options.map((choice): Call => ({ to, functionName: 'totalFunds', args: [BigInt(choice)] })),
        ...globals.map((functionName): Call => ({ to, functionName })),
      ]);
      const values = await call(calls);
      let at = 0;
      return pools.map(({ contractAddress, options }) => {
        const take = (count: number) => values.slice(at, (at += count));
        const prices = take(options.length).map((each) => each.value);
        const funds = take(options.length).map((each) => each.value);
        const totals = take(globals.length).map((each, index) => {
          if (each.value === undefined) {
            throw new PredgateError(
              'EXCHANGE_NOT_AVAILABLE',
              `${venue}: ${globals[index]}() of pool ${contractAddress} failed on Arbitrum: ${each.error!.slice(0, 200)}`,
              {
                exchange: venue,
                detail: { endpoint: 'POST eth_call batch', contract: contractAddress, field: `${globals[index]}()`, venueMessage: each.error!.slice(0, 200) },
              },
            );
          }
          return each.value;
        }) as [bigint, bigint, bigint, bigint, bigint, bigint];
        const [allFunds, totalLiquidity, endTime, decimals, poolState, winner] = totals;
        return {
          prices,
          funds,
          allFunds,
          totalLiquidity,
          endTime,
          decimals: decimalCount(decimals, venue, contractAddress),
          poolState: Number(poolState),
          winner,
        };
      });
    },

    /** Trades of one option of a pool, newest first: AMM buys and both kinds of limit-order fills. */
    async trades(subgraph: { key: string }, contract: string, choice: number, window: TradeWindow): Promise<RawTradeRows> {
      const where = (field: string) =>
        `where: {poolAddress: "${contract.toLowerCase()}", ${field}: "${choice}"${window.since === undefined ? '' : `, blockTimestamp_gte: "${window.since}"`}${
          window.until === undefined ? '' : `, blockTimestamp_lte: "${window.until}"`
        }}, orderBy: blockTimestamp, orderDirection: desc, first: ${window.first}`;
      const fills = 'id orderOption orderPrice optionAmount baseAmount blockTimestamp transactionHash';
      const query =
        `{ enterOptions(${where('option')}) { id option baseAmount optionAmount blockTimestamp transactionHash } ` +
        `executeBuyOrders(${where('orderOption')}) { ${fills} } ` +
        `executeSellOrders(${where('orderOption')}) { ${fills} } }`;
      return checkPayload<RawTradeRows>(tradeRows, subgraphData(venue, await graph(subgraph, query)), { venue, endpoint: 'POST subgraph trades' });
    },

    /** A wallet's fills and claims across every pool, newest first, `first` rows of each kind. */
    async walletHistory(subgraph: { key: string }, wallet: string, first: number): Promise<RawWalletRows> {
      const where = (field: string) => `where: {${field}: "${wallet.toLowerCase()}"}, orderBy: blockTimestamp, orderDirection: desc, first: ${first}`;
      const fills = 'id poolAddress orderOption orderPrice optionAmount baseAmount orderID blockTimestamp transactionHash';
      const query =
        `{ enterOptions(${where('wallet')}) { id poolAddress option baseAmount optionAmount blockTimestamp transactionHash } ` +
        `executeBuyOrders(${where('maker')}) { ${fills} } ` +
        `executeBuyOrdersAsTaker: executeBuyOrders(${where('taker')}) { ${fills} } ` +
        `executeSellOrders(${where('maker')}) { ${fills} } ` +
        `executeSellOrdersAsTaker: executeSellOrders(${where('taker')}) { ${fills} } ` +
        `claims(${where('wallet')}) { id poolAddress } }`;
      return checkPayload<RawWalletRows>(walletRows, subgraphData(venue, await graph(subgraph, query)), { venue, endpoint: 'POST subgraph wallet history' });
    },

    /**
     * A wallet's ERC-20 balances, in one batch: per token `balanceOf(wallet)`
     * then `decimals()`. Each balance is the token's exact integer in base
     * units; a token whose reads fail answers its error instead.
     */
    async tokenBalances(tokens: readonly string[], wallet: Hex): Promise<Array<{ units: bigint; decimals: number } | { error: string }>> {
      const calls = tokens.flatMap((to) => [
        { to, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [wallet] }) },
        { to, data: encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }) },
      ]);
      const answers = await batch(calls);
      return tokens.map((_, index) => {
        const [balance, decimals] = [answers[2 * index]!, answers[2 * index + 1]!];
        try {
          if (!balance.result || balance.result === '0x') return { error: `balanceOf: ${balance.error ?? 'empty result'}` };
          if (!decimals.result || decimals.result === '0x') return { error: `decimals: ${decimals.error ?? 'empty result'}` };
          return {
            units: decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data: balance.result }),
            decimals: decodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', data: decimals.result }),
          };
        } catch {
          return { error: `an answer that is no uint: ${(balance.result ?? '').slice(0, 80)} ${(decimals.result ?? '').slice(0, 80)}` };
        }
      });
    },

    /** The wallet's shares of every option of each pool (userVotes), with the option prices and the collateral decimals. */
    async holdings(pools: ReadonlyArray<{ contractAddress: string; options: number[] }>, wallet: Hex) {
      const calls: Call[] = pools.flatMap(({ contractAddress: to, options }) => [
        ...options.map((choice): Call => ({ to, functionName: 'userVotes', args: [BigInt(choice), wallet] })),
        ...options.map((choice): Call => ({ to, functionName: 'getCurrentPrice', args: [BigInt(choice)] })),
        { to, functionName: 'baseTokenDecimals' },
      ]);
      const values = await call(calls);
      let at = 0;
      return pools.map(({ contractAddress, options }) => {
        const take = (count: number) => values.slice(at, (at += count));
        const votes = take(options.length).map((each) => required(each, contractAddress, 'userVotes()'));
        const prices = take(options.length).map((each) => each.value);
        const [decimals] = take(1).map((each) => required(each, contractAddress, 'baseTokenDecimals()'));
        return { votes, prices, decimals: decimalCount(decimals!, venue, contractAddress) };
      });
    },
  };
}

export type RainApi = ReturnType<typeof rainApi>;

/** `baseTokenDecimals()` answers the count (6) on some pools and the scale (1000000) on others. */
function decimalCount(value: bigint, venue: string, contract: string): number {
  if (value <= 36n) return Number(value);
  const text = value.toString();
  if (/^10+$/.test(text) && text.length - 1 <= 36) return text.length - 1;
  throw new PredgateError(
    'EXCHANGE_NOT_AVAILABLE',
    `${venue}: baseTokenDecimals() of pool ${contract} answered ${text.slice(0, 40)}, neither a decimal count nor a power of ten`,
    {
      exchange: venue,
      detail: { endpoint: 'POST eth_call batch', contract, field: 'baseTokenDecimals()', drift: true },
    },
  );
}

/** A whole batch refused (`{error:{code,message}}`): rate limits read as such, anything else as the RPC being unavailable. */
function refusedBatch(venue: string, answer: unknown): PredgateError {
  const error = (answer as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const message = typeof error?.message === 'string' ? error.message.slice(0, 300) : undefined;
  if (!message) {
    return new PredgateError('EXCHANGE_NOT_AVAILABLE', `${venue}: the Arbitrum RPC answered an eth_call batch in a shape Predgate does not understand`, {
      exchange: venue,
      detail: { endpoint: 'POST eth_call batch', field: '(body)', drift: true },
    });
  }
  const limited = error?.code === 429 || error?.code === -32005 || /rate.?limit|too many requests/i.test(message);
  return new PredgateError(limited ? 'RATE_LIMIT_EXCEEDED' : 'EXCHANGE_NOT_AVAILABLE', `${venue}: the Arbitrum RPC refused the batch: ${message}`, {
    exchange: venue,
    detail: { endpoint: 'POST eth_call batch', venueMessage: message, ...(typeof error?.code === 'number' ? { rpcCode: error.code } : {}) },
  });
}

/**
 * The gateway answers HTTP 200 even when it refuses the query: its `errors`
 * are read first. An auth error is the subgraph key's fault, never "no trades".
 */
function subgraphData(venue: string, answer: unknown): unknown {
  const record = (typeof answer === 'object' && answer !== null ? answer : {}) as { data?: unknown; errors?: unknown };
  if (!Array.isArray(record.errors) || record.errors.length === 0) return record.data;
  const first = record.errors[0] as { message?: unknown } | null;
  const venueMessage = typeof first?.message === 'string' ? first.message.slice(0, 300) : 'unreadable error';
  const auth = /^auth error/i.test(venueMessage);
  throw new PredgateError(
    auth ? 'AUTHENTICATION_ERROR' : 'EXCHANGE_NOT_AVAILABLE',
    `${venue}: the Rain subgraph (The Graph gateway) ${auth ? 'refused the API key' : 'failed the query'}: ${venueMessage}`,
    { exchange: venue, detail: { endpoint: 'POST subgraph', venueMessage, service: 'subgraph' } },
  );
}
