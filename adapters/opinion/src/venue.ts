/** The venue id, named in every error and answer. */
export const venue = 'opinion';
