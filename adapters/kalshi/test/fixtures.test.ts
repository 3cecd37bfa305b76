import { runFixtureSuite } from '@predgate/core/testkit';
import { test } from 'vitest';
import { kalshiDemoPlugin, kalshiPlugin } from '../src/index.js';
import { factoryFor, fixtureDirs, fixtureNow } from './support/replay.js';

for (const plugin of [kalshiPlugin, kalshiDemoPlugin]) {
  runFixtureSuite(test, { name: plugin.id, dir: fixtureDirs[plugin.id]!, create: factoryFor(plugin), now: fixtureNow });
}
