import { fileURLToPath } from 'node:url';
import { createHttpClientFactory, fixedClock, silentLogger } from '@predgate/core';
import type { Credentials } from '@predgate/core';
import { loadFixtureCases, replayAgent } from '@predgate/core/testkit';
import type { AdapterFactoryContext } from '@predgate/core/testkit';
import { createPolymarketAdapter } from '../src/adapter.js';
import type { PolymarketAdapter } from '../src/adapter.js';
import { readPolymarketConfig } from '../src/config.js';

/** Shared by the fixture and conformance suites: the folder, the clock and the account of the fixtures. */
export const fixtureDir = fileURLToPath(new URL('./fixtures', import.meta.url));

/** 2026-08-14T17:50:00Z, during the live 15-minute window of the fixtures. */
export const fixtureNow = 1_786_729_800_000;

/** Signed orders are reproducible only with a fixed salt. */
export const fixtureSalt = 1_234_567_890;

/** Hardhat's first development key: public, and never to hold funds. */
export const testKey = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/** The fixture account: a Safe (signature type 2) funded at the positions payload's proxy wallet. */
export const fixtureCredentials: Credentials = {
  privateKey: testKey,
  apiKey: 'f4d3c2b1-7a6e-4d5c-9b8a-0e1f2a3b4c5d',
  apiSecret: 'cHJlZGdhdGUtZml4dHVyZS1zZWNyZXQtMzItYnl0ZXM',
  passphrase: 'fixture-passphrase',
  signatureType: 'gnosis-safe',
  funderAddress: '0x3e5b0d4f7c1a9e2d8b6f4a0c2e7d9b1f5a3c8e60',
};

/** The adapter as the test kit makes it, with the fixed salt. */
export function createAdapter(context: AdapterFactoryContext, config: Record<string, unknown> = {}): PolymarketAdapter {
  return createPolymarketAdapter({ ...context, logger: silentLogger, config }, readPolymarketConfig(config), { salt: () => fixtureSalt });
}

/** An adapter whose venue is the recorded traffic of every fixture, in any order. */
export function createReplayingAdapter(credentials: Credentials | undefined = fixtureCredentials, config: Record<string, unknown> = {}): PolymarketAdapter {
  const http = createHttpClientFactory({ dispatcher: replayAgent(loadFixtureCases(fixtureDir)) });
  return createAdapter({ http, clock: fixedClock(fixtureNow), ...(credentials ? { credentials } : {}) }, config);
}
