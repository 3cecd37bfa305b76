import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { KeyFile } from './key-file.js';
import { KeyStore } from './key-store.js';
import { RequestBudget, refusedBudget } from './request-budget.js';
import { RequestGate } from './request-gate.js';

const key = 'gate-key-0123456789abcdef';
const opened: KeyStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

async function gate(requests: number): Promise<RequestGate> {
  const keys = await KeyStore.open(new KeyFile(mkdtempSync(join(tmpdir(), 'predgate-gate-'))), { environmentKeys: [key] });
  opened.push(keys);
  return new RequestGate(keys, new RequestBudget({ requests, windowSeconds: 60 }));
}

describe('the request gate', () => {
  test('lets a known key in and charges its budget one request', async () => {
    const door = await gate(5);
    const first = await door.admit(key, {});
    const second = await door.admit(key, {});
    expect(first.budget).toEqual({ limit: 5, remaining: 4, resetSeconds: expect.any(Number) });
    expect(second.budget?.remaining).toBe(3);
    expect(second.key.id).toBe(first.key.id);
  });

  test('a missing or unknown key is INVALID_API_KEY, saying how this way in takes a key', async () => {
    const door = await gate(5);
    await expect(door.admit(undefined, {}, 'send ?apiKey=<key>')).rejects.toMatchObject({
      code: 'INVALID_API_KEY',
      message: 'Missing API key: send ?apiKey=<key>',
    });
    await expect(door.admit('not-a-key-0123456789', {})).rejects.toMatchObject({ code: 'INVALID_API_KEY', message: 'Invalid API key' });
  });

  test('a spent budget is RATE_LIMIT_EXCEEDED with its state; the same request asked again is refused without a second charge', async () => {
    const door = await gate(1);
    await door.admit(key, {});
    const request = {};
    const refusal = await door.admit(key, request).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect(refusedBudget(refusal)).toMatchObject({ limit: 1, remaining: 0 });
    // The lean path hands a refused request to hapi, whose step asks again: the same refusal, not a new one.
    await expect(door.admit(key, request)).rejects.toBe(refusal);
  });

  test('with the budget off, a known key is let in without a budget state', async () => {
    const door = await gate(0);
    expect((await door.admit(key, {})).budget).toBeUndefined();
  });
});
