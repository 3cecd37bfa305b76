import { describe, expect, test } from 'vitest';
import { SessionTokens } from './session.js';

const start = Date.UTC(2024, 5, 12, 13, 10);

function harness() {
  let now = start;
  let logins = 0;
  const sessions = new SessionTokens(
    async () => {
      logins += 1;
      // Thirty minutes from login, written as the venue writes `stop`: no zone, meaning UTC.
      return { token: `token-${logins}`, stop: new Date(now + 30 * 60_000).toISOString().replace('Z', '') };
    },
    () => now,
  );
  return { sessions, logins: () => logins, advance: (ms: number) => (now += ms) };
}

describe('session tokens', () => {
  test('one login, shared by concurrent calls, then reused while valid', async () => {
    const { sessions, logins, advance } = harness();
    expect(await Promise.all([sessions.token(), sessions.token(), sessions.token()])).toEqual(['token-1', 'token-1', 'token-1']);
    advance(20 * 60_000);
    expect(await sessions.token()).toBe('token-1');
    expect(logins()).toBe(1);
  });

  test('renewed a minute before the venue’s stop, which is read as UTC', async () => {
    const { sessions, logins, advance } = harness();
    await sessions.token();
    advance(28 * 60_000 + 59_000);
    expect(await sessions.token()).toBe('token-1');
    advance(2_000);
    expect(await sessions.token()).toBe('token-2');
    expect(logins()).toBe(2);
  });

  test('a refused token is forgotten: the next call logs in again', async () => {
    const { sessions, logins } = harness();
    await sessions.token();
    sessions.forget();
    expect(await sessions.token()).toBe('token-2');
    expect(logins()).toBe(2);
  });

  test('a failed login is not cached: the next call tries again', async () => {
    let attempts = 0;
    const sessions = new SessionTokens(
      async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('INVALID_CREDENTIALS');
        return { token: 'token-ok', stop: '2024-06-12T13:40:11.482913' };
      },
      () => start,
    );
    await expect(sessions.token()).rejects.toThrow('INVALID_CREDENTIALS');
    expect(await sessions.token()).toBe('token-ok');
  });
});
