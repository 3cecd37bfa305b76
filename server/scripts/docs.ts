/** `pnpm docs`: regenerates the README's method and venue tables from the method list and the installed adapters. */
import { readFileSync, writeFileSync } from 'node:fs';
import { installedCapabilities, methodTable, venueTable, withTables } from '../src/docs/readme-tables.js';

const root = new URL('../../', import.meta.url);
const readmePath = new URL('README.md', root);
const venues = await installedCapabilities([new URL('..', import.meta.url).pathname]);
const readme = readFileSync(readmePath, 'utf8');
writeFileSync(readmePath, withTables(readme, { methods: methodTable(), venues: venueTable(venues) }));
console.log(`README.md: ${Object.keys(venues[0]?.has ?? {}).length} methods, ${venues.length} venues`);
