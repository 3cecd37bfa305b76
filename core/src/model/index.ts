export * from './catalog.js';
export * from './market-data.js';
export * from './account.js';
export * from './params.js';
export * from './venue.js';
