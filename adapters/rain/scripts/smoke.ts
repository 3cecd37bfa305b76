/** Live smoke run against the real venue, for operators; never run in CI (it needs the network). */
import { runSmoke } from '@predgate/core/testkit';
import plugin from '../src/index.js';

process.exitCode = (await runSmoke(plugin)) === 0 ? 0 : 1;
