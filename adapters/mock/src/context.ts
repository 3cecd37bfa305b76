import type { Clock } from '@predgate/core';
import type { SimulatedAccount } from './simulation/account.js';
import type { SimulatedVenue } from './simulation/venue.js';

/** What every call of one adapter instance shares: the simulated venue, this instance's account, the clock. */
export interface MockContext {
  venue: SimulatedVenue;
  account: SimulatedAccount;
  clock: Clock;
  /** How often the simulated streams tick, in ms. */
  tickMs: number;
}
