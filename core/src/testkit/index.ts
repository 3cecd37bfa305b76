export { runConformanceSuite } from './conformance.js';
export type { ConformanceCase, ConformanceOptions, Discovery, TestFunction } from './conformance.js';
export { checkResult } from './invariants.js';
export { loadFixtureCases, replayAgent, runFixtureSuite } from './fixtures.js';
export type { AdapterFactoryContext, FixtureCase, FixtureExchange, FixtureSuiteOptions } from './fixtures.js';
export { runSmoke } from './smoke.js';
export type { SmokeOptions } from './smoke.js';
export { replayedAdapter, runAdapterSuites } from './suites.js';
export type { AdapterSuitesOptions } from './suites.js';
