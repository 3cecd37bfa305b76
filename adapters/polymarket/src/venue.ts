/** Venue id, as in `/api/polymarket/...`, and the `sourceExchange` of everything the adapter returns. */
export const venueId = 'polymarket';
export const displayName = 'Polymarket';
export const webUrl = 'https://polymarket.com';
