/** AMM markets have no CLOB tokens: their outcomes are named `<slug>:yes` and `<slug>:no`. */
export const ammOutcomeId = (slug: string, side: 'yes' | 'no') => `${slug}:${side}`;

/** `<market slug>:<order id>`: an order named with its market. */
export const qualifiedOrderId = /^([a-z0-9][a-z0-9-]{0,299}):([^:]{1,200})$/i;

/** A market's outcome ids, YES then NO: CLOB token ids, or `<slug>:yes|no` on AMM markets. */
export type OutcomeIds = readonly [yes: string, no: string];
