/** Where normalised objects come from: the venue id (their `sourceExchange`) and its web site. */
export interface Origin {
  exchange: string;
  web: string;
}

/** The web page of an event; markets link to their event's page, as Kalshi has none of their own. */
export function eventUrl(origin: Origin, eventTicker: string): string {
  return `${origin.web.replace(/\/+$/, '')}/events/${eventTicker}`;
}
