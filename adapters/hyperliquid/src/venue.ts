export const venueId = 'hyperliquid';

/** The venue refuses orders worth less than this, in the quote token. */
export const minOrderValue = 10;
