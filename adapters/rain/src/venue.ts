export const venueId = 'rain';
