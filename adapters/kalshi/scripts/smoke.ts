/**
 * Live smoke run against the real venue, for operators; never run in CI (it
 * needs the network and, for the account reads, real keys).
 *
 *   pnpm --filter @predgate/adapter-kalshi smoke [kalshi|kalshi-demo]
 *
 * Production and demo keys are kept in separate variables, as each only works
 * against its own hosts: KALSHI_API_KEY, KALSHI_PRIVATE_KEY (or
 * KALSHI_PRIVATE_KEY_PATH), and the same with KALSHI_DEMO_. Nothing here
 * places or cancels orders.
 */
import { readFileSync } from 'node:fs';
import type { Credentials } from '@predgate/core';
import { runSmoke } from '@predgate/core/testkit';
import { plugins } from '../src/index.js';

const venue = process.argv[2] ?? 'kalshi';
const plugin = plugins.find((candidate) => candidate.id === venue);
if (!plugin) {
  console.error(`usage: smoke [${plugins.map((candidate) => candidate.id).join('|')}]`);
  process.exit(2);
}

const prefix = venue === 'kalshi-demo' ? 'KALSHI_DEMO' : 'KALSHI';
const apiKey = process.env[`${prefix}_API_KEY`];
const keyPath = process.env[`${prefix}_PRIVATE_KEY_PATH`];
const privateKey = process.env[`${prefix}_PRIVATE_KEY`] ?? (keyPath ? readFileSync(keyPath, 'utf8') : undefined);
const credentials: Credentials | undefined = apiKey && privateKey ? { apiKey, privateKey } : undefined;

process.exitCode = (await runSmoke(plugin, credentials ? { credentials } : {})) === 0 ? 0 : 1;
