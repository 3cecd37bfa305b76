import { PredgateError } from '@predgate/core';
import type { KeyStore, StoredKey } from './key-store.js';
import type { BudgetState, RequestBudget } from './request-budget.js';

/** A request let in: the key it presented, and where that key's budget stands after paying for it. */
export interface Admitted {
  key: StoredKey;
  /** Undefined when there is no budget (rate limit off). */
  budget: BudgetState | undefined;
}

/**
 * The one way in for every keyed request, whichever part of the gateway
 * answers it (hapi's routes, the lean path in front of them, `/ws` upgrades):
 * the presented key is checked against the key store, then one request is
 * taken from that key's budget. A refusal is INVALID_API_KEY (401) or
 * RATE_LIMIT_EXCEEDED (429, its budget state in `refusedBudget`).
 */
export class RequestGate {
  constructor(
    private readonly keys: KeyStore,
    private readonly budget: RequestBudget,
  ) {}

  /**
   * `request` names the HTTP request being let in: asked again for the same
   * one (the lean path hands a request it does not answer to hapi), its budget
   * is not charged twice. `missingHint` says how this way in takes a key.
   */
  async admit(presented: string | undefined, request: object, missingHint = 'send "Authorization: Bearer <key>"'): Promise<Admitted> {
    if (!presented) throw new PredgateError('INVALID_API_KEY', `Missing API key: ${missingHint}`);
    const key = this.keys.verify(presented);
    if (!key) throw new PredgateError('INVALID_API_KEY', 'Invalid API key');
    return { key, budget: await this.budget.spend(key.id, request) };
  }
}
