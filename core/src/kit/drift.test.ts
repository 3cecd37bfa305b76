import { setImmediate as turn } from 'node:timers/promises';
import { afterEach, expect, test } from 'vitest';
import { PredgateError } from '../errors.js';
import { addUnscopedDriftSink, collectingDrift, reportDrift, withDriftSink } from './drift.js';

const report = (item: string) => new PredgateError('EXCHANGE_NOT_AVAILABLE', `left out ${item}`, { exchange: 'test', detail: { drift: true, item } });
const items = (reports: PredgateError[]) => reports.map((one) => one.detail?.item);

const unscoped: PredgateError[] = [];
addUnscopedDriftSink((one) => unscoped.push(one));
afterEach(() => void unscoped.splice(0));

test('a report made in a scope goes to its sink and the scopes around it, never to the unscoped sinks', async () => {
  const outer: PredgateError[] = [];
  const inner: PredgateError[] = [];
  await withDriftSink(
    (one) => outer.push(one),
    async () => {
      await turn();
      await withDriftSink(
        (one) => inner.push(one),
        async () => {
          await turn();
          reportDrift(report('a'));
        },
      );
      reportDrift(report('b'));
    },
  );
  expect(items(inner)).toEqual(['a']);
  expect(items(outer)).toEqual(['a', 'b']);
  expect(unscoped).toEqual([]);
});

test('a report made outside any scope goes to the unscoped sinks, also when a collector around it counts it', async () => {
  reportDrift(report('alone'));
  const { reports } = await collectingDrift(async () => {
    await turn();
    reportDrift(report('collected'));
  });
  expect(items(reports)).toEqual(['collected']);
  expect(items(unscoped)).toEqual(['alone', 'collected']);
});

test('the scopes are switched off once the last one closes: work left running after it reports unscoped', async () => {
  const scoped: PredgateError[] = [];
  let leftRunning!: Promise<void>;
  await withDriftSink(
    (one) => scoped.push(one),
    async () => {
      leftRunning = turn().then(() => turn().then(() => reportDrift(report('late'))));
      await turn();
    },
  );
  await leftRunning;
  expect(scoped).toEqual([]);
  expect(items(unscoped)).toEqual(['late']);
});

test('a removed unscoped sink receives nothing more', () => {
  const removed: PredgateError[] = [];
  addUnscopedDriftSink((one) => removed.push(one))();
  reportDrift(report('after'));
  expect(removed).toEqual([]);
  expect(items(unscoped)).toEqual(['after']);
});

test('a scope whose work throws is closed too', async () => {
  const scoped: PredgateError[] = [];
  let leftRunning!: Promise<void>;
  expect(() =>
    withDriftSink(
      (one) => scoped.push(one),
      () => {
        leftRunning = turn().then(() => reportDrift(report('late')));
        throw new Error('failed');
      },
    ),
  ).toThrow('failed');
  await leftRunning;
  expect(scoped).toEqual([]);
  expect(items(unscoped)).toEqual(['late']);
});
