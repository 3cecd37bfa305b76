export const venueId = 'myriad';

/** The venue's page size, the most it serves at once. */
export const pageSize = 100;
