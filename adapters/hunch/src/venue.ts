export const venueId = 'hunch';
