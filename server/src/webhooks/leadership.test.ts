import type { LeaseState, SweepLeases } from '@predgate/catalog';
import { until } from '@predgate/core/testkit';
import { expect, test } from 'vitest';
import { LeaseLeadership } from './leadership.js';

/** Leases whose claims are answered only when the test says so, each granting the lease for the time the test gives. */
class HeldLeases implements SweepLeases {
  readonly waiting: ((grantMs: number) => void)[] = [];

  claim(_venue: string, holder: string): Promise<LeaseState> {
    return new Promise((resolve) => this.waiting.push((grantMs) => resolve({ holder, expiresAt: Date.now() + grantMs })));
  }

  answerAll(grantMs: number): void {
    for (const answer of this.waiting.splice(0)) answer(grantMs);
  }

  async release(): Promise<void> {}
}

test('a leader whose renewal is held up past its lease stops leading, and leads again, told so, once renewed', async () => {
  const leases = new HeldLeases();
  const leadership = new LeaseLeadership(leases, 'me', 60, (error) => {
    throw error;
  });
  const changes: boolean[] = [];
  const started = leadership.start((leading) => changes.push(leading));
  try {
    await until(() => leases.waiting.length === 1, 'the first claim');
    leases.answerAll(60);
    await started;
    expect(leadership.leading).toBe(true);

    // The renewal is not answered: the lease ends, and with it the lead, though no claim has failed.
    await until(() => !leadership.leading, 'the lead ends with the lease', 5_000);
    expect(changes).toEqual([]);

    await until(() => leases.waiting.length > 0, 'a renewal under way');
    leases.answerAll(60_000);
    await until(() => changes.length === 1, 'told of the lead regained');
    expect(changes).toEqual([true]);
    expect(leadership.leading).toBe(true);
  } finally {
    // Closing stops the renewals, then waits for the one under way: answered here.
    const closing = leadership.close();
    leases.answerAll(0);
    await closing;
  }
});
