import { expect, test } from 'vitest';
import { fixtureEvent } from '../../test/fixtures.js';
import { catalogEntry } from '../document.js';
import { eventJson } from './event-json.js';
import { Interner } from './interner.js';
import { EntryViews, StoredEntry } from './stored-entry.js';

function stored(venue: string, id: string, views: EntryViews): StoredEntry {
  const entry = catalogEntry(venue, fixtureEvent(venue, id));
  const { json, refs } = eventJson(entry.source, entry);
  return new StoredEntry(entry, { bytes: Buffer.from(json), refs }, views, new Interner());
}

test('views are spliced once, then served from the cache, until their venue is swept again', () => {
  const views = new EntryViews();
  const [alpha, beta] = [stored('alpha', 'a1', views), stored('beta', 'b1', views)];
  expect(alpha.routerJson).toBe(alpha.routerJson);
  expect(JSON.parse(alpha.sourceJson.toString('utf8'))).toEqual(fixtureEvent('alpha', 'a1'));
  void beta.routerJson;
  void beta.sourceJson;
  views.forget('alpha');
  expect([...views.router.keys()]).toEqual([beta]);
  expect([...views.source.keys()]).toEqual([beta]);
});

test('a market row gives back its outcome ids as the venue had them: none, one, several, and ids holding a NUL', () => {
  const event = fixtureEvent('alpha', 'a1');
  const outcomeIdLists = [[], ['only'], ['yes-token', 'no-token', 'draw'], ['with\u0000nul', 'plain']];
  const markets = outcomeIdLists.map((ids, index) => ({
    ...event.markets[0]!,
    marketId: `m${index}`,
    outcomes: ids.map((outcomeId) => ({ ...event.markets[0]!.outcomes[0]!, outcomeId })),
  }));
  const entry = catalogEntry('alpha', { ...event, markets });
  const row = new StoredEntry(entry, { bytes: Buffer.from(JSON.stringify(entry.source)), refs: '' }, new EntryViews(), new Interner());
  expect(row.rows.map((market) => market.outcomeIds)).toEqual(outcomeIdLists);
  expect(row.outcomeIds).toEqual(outcomeIdLists.flat());
});
