export { runConformanceSuite } from './conformance.js';
export type { ConformanceCase, ConformanceOptions, Discovery, TestFunction } from './conformance.js';
export { checkResult } from './invariants.js';
export { loadFixtureCases, replayAgent, runFixtureSuite } from './fixtures.js';
export type { AdapterFactoryContext, FixtureCase, FixtureExchange, FixtureSuiteOptions } from './fixtures.js';
export { runSmoke } from './smoke.js';
export type { SmokeOptions } from './smoke.js';
export { replayedAdapter, runAdapterSuites } from './suites.js';
export type { AdapterSuitesOptions } from './suites.js';
export { checkRoundTrip, runRoundTripLaw } from './round-trip.js';
export { collectFeed, watchBookAndTrades } from './streams.js';
export type { BookAndTradeStream, CollectedFeed } from './streams.js';
export { LocalSocketVenue, engineIoOpen, startSocketIoVenue, until } from './local-socket-venue.js';
export type { LocalSocketVenueHooks, SocketIoVenue } from './local-socket-venue.js';
export type { RoundTripOptions } from './round-trip.js';
export * as eip712 from './eip712.js';
export { runStreamSuites } from './stream-suites.js';
export type {
  ExpectedBook,
  ScriptedBook,
  ScriptedTrades,
  StreamScript,
  StreamSuitesOptions,
  StreamUnderTest,
  TradeStreamScript,
  TradeStreamSuitesOptions,
  TradeStreamUnderTest,
} from './stream-suites.js';
