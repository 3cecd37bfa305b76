/**
 * Live smoke run against the real Polymarket APIs, for operators; never run
 * in CI: `pnpm --filter @predgate/adapter-polymarket smoke`. With
 * POLYMARKET_PRIVATE_KEY set, the account reads run too (nothing is placed
 * or cancelled).
 */
import { runSmoke } from '@predgate/core/testkit';
import plugin from '../src/index.js';

const privateKey = process.env.POLYMARKET_PRIVATE_KEY;
process.exitCode = (await runSmoke(plugin, privateKey ? { credentials: { privateKey } } : {})) === 0 ? 0 : 1;
