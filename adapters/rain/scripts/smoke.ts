/**
 * Live smoke run against the real venue, for operators; never run in CI (it needs the network).
 * Trades and candles need a The Graph API key: RAIN_SUBGRAPH_API_KEY. Positions and my trades
 * run for RAIN_WALLET_ADDRESS when it is set. RAIN_RPC_URL replaces the public Arbitrum RPC.
 */
import { runSmoke } from '@predgate/core/testkit';
import plugin from '../src/index.js';

const { RAIN_SUBGRAPH_API_KEY: subgraphApiKey, RAIN_WALLET_ADDRESS: walletAddress, RAIN_RPC_URL: rpcUrl } = process.env;

process.exitCode =
  (await runSmoke(plugin, {
    config: { ...(subgraphApiKey ? { subgraphApiKey } : {}), ...(rpcUrl ? { rpcUrl } : {}) },
    ...(walletAddress ? { credentials: { walletAddress } } : {}),
  })) === 0
    ? 0
    : 1;
