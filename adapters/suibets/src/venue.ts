export const venueId = 'suibets';
export const webUrl = 'https://www.suibets.com/p2p';
