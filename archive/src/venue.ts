/** The venue whose order books the archive keeps: its market channel is recorded, its outcome tokens are the archive's keys. */
export const archivedVenue = 'polymarket';
