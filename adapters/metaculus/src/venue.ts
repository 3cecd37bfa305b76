export const venueId = 'metaculus';

/** The credential member every call needs. */
export const tokenMember = ['apiToken'];
