export { runConformanceSuite } from './conformance.js';
export type { ConformanceCase, ConformanceOptions, Discovery, TestFunction } from './conformance.js';
export { checkResult } from './invariants.js';
export { loadFixtureCases, replayAgent, runFixtureSuite } from './fixtures.js';
export type { AdapterFactoryContext, FixtureCase, FixtureExchange, FixtureSuiteOptions } from './fixtures.js';
