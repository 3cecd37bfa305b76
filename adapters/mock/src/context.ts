import type { Clock } from '@predgate/core';
import type { SimulatedAccount } from './simulation/account.js';
import type { SimulatedVenue } from './simulation/venue.js';

export { venueId } from './simulation/catalog.js';

/** Page size when a list call gives no `limit`: a whole 2,000-event venue is megabytes of JSON. */
export const defaultPageSize = 100;

/** What every call of one adapter instance shares: the simulated venue, this instance's account, the clock. */
export interface MockContext {
  venue: SimulatedVenue;
  account: SimulatedAccount;
  clock: Clock;
  /** How often the simulated streams tick, in ms. */
  tickMs: number;
}
