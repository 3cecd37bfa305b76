export { runConformanceSuite } from './conformance.js';
export type { ConformanceCase, ConformanceOptions, Discovery, TestFunction } from './conformance.js';
export { checkResult } from './invariants.js';
