import { runAdapterSuites } from '@predgate/core/testkit';
import { test } from 'vitest';
import plugin from '../src/index.js';

runAdapterSuites(test, { plugin, fixtures: new URL('./fixtures', import.meta.url).pathname, now: 1_785_734_468_581 });
