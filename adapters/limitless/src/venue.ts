export const venueId = 'limitless';

/** Markets one listing page holds (the venue's most). */
export const pagePerRequest = 25;
export const defaultLimit = 25;
/** Raw share and USDC amounts carry 6 decimals. */
export const unit = 1e6;
