import { PredgateError, reportDrift } from '@predgate/core';
import { Counter, Registry } from 'prom-client';
import { expect, test } from 'vitest';
import { DriftRecorder } from './drift.js';

const report = (exchange: string, item: string) =>
  new PredgateError('EXCHANGE_NOT_AVAILABLE', `left out ${item}`, { exchange, detail: { drift: true, endpoint: 'GET /book', field: 'bids.0.price', item } });

function recorder(): { drift: DriftRecorder; counted: () => Promise<string> } {
  const registry = new Registry();
  const counter = new Counter({ name: 'drift', help: 'drift', labelNames: ['venue', 'endpoint', 'field'] as const, registers: [registry] });
  return { drift: new DriftRecorder(counter, () => 0), counted: () => registry.metrics() };
}

test('drift reported outside any scope is counted for the venue it names, when the gateway serves it, until stopped', async () => {
  const { drift, counted } = recorder();
  const stop = drift.countUnscoped(['polymarket']);
  reportDrift(report('polymarket', 'a'));
  reportDrift(report('elsewhere', 'b'));
  stop();
  reportDrift(report('polymarket', 'c'));
  expect(await counted()).toContain('drift{venue="polymarket",endpoint="GET /book",field="bids.*.price"} 1');
  expect(drift.of('polymarket').map((one) => one.item)).toEqual(['a']);
  expect(drift.of('elsewhere')).toEqual([]);
});

test('a report handed over twice (left out, then thrown as a lookup’s answer) is counted once', async () => {
  const { drift, counted } = recorder();
  const leftOut = report('polymarket', 'a');
  drift.record('polymarket', leftOut);
  drift.record('polymarket', leftOut);
  drift.record('polymarket', report('polymarket', 'a'));
  expect(await counted()).toContain('drift{venue="polymarket",endpoint="GET /book",field="bids.*.price"} 2');
});
