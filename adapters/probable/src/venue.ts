export const venueId = 'probable';
