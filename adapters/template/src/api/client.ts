import { checkPayload } from '@predgate/core';
import type { VenueHttpClient } from '@predgate/core';
import { book, eventsPage } from './schemas.js';
import type { RawBook, RawEvent } from './schemas.js';

export type TemplateApi = ReturnType<typeof venueApi>;

/** The venue's REST endpoints, each answer checked before it is read. */
export function venueApi(http: VenueHttpClient, baseUrl: string) {
  return {
    async events(query: { limit: number; offset: number; q?: string }): Promise<RawEvent[]> {
      const body = await http.json({ url: `${baseUrl}/v1/events`, query });
      return checkPayload<{ events: RawEvent[] }>(eventsPage, body, { venue: http.venue, endpoint: 'GET /v1/events' }).events;
    },
    async book(outcomeId: string): Promise<RawBook> {
      const body = await http.json({ url: `${baseUrl}/v1/books/${encodeURIComponent(outcomeId)}` });
      return checkPayload<RawBook>(book, body, { venue: http.venue, endpoint: 'GET /v1/books/{id}' });
    },
  };
}
