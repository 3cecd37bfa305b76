export { venueId } from './simulation/catalog.js';

/** Page size when a list call gives no `limit`: a whole 2,000-event venue is megabytes of JSON. */
export const defaultPageSize = 100;
