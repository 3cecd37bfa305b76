import { runFixtureSuite } from '@predgate/core/testkit';
import { test } from 'vitest';
import { createAdapter, fixtureDir, fixtureNow } from './support.js';

runFixtureSuite(test, { name: 'polymarket', dir: fixtureDir, create: createAdapter, now: fixtureNow });
