import { withoutBinaryRefs } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import type { RouterFacts } from './router-json.js';
import { trailingRefs } from './binary-refs.js';

/** What a sweep stores of an event, serialised once: its stored JSON (see binary-refs.ts), where its references were, and the Router's view. */
export interface EventJson {
  json: string;
  refs: string;
  router: string;
}

/**
 * The event's stored JSON (the venue's event without the binary references
 * it can be given back, `storedJson` in binary-refs.ts) and the Router's view
 * (`routerView` in document.ts), byte for byte as serialising each would
 * give, with each market serialised once: the Router's market is the stored
 * one with its `eventId` and `sourceExchange` values swapped for the
 * catalog's, where the market holds both once as strings (a venue's markets
 * do); any other market is serialised for the view on its own. Both events
 * are shells serialised with a placeholder where their markets go, so no
 * object graph is copied for them.
 */
export function eventJson(event: Event, facts: RouterFacts): EventJson {
  const idJson = JSON.stringify(facts.id);
  const venueJson = JSON.stringify(facts.venue);
  const refs: string[] = [];
  const bareMarkets: Market[] = [];
  const stored: string[] = [];
  const routed: string[] = [];
  for (const market of event.markets) {
    const pairs = trailingRefs(market);
    refs.push(pairs ?? '');
    const bare = pairs === undefined ? market : (withoutBinaryRefs(market) as Market);
    bareMarkets.push(bare);
    const json = JSON.stringify(bare);
    stored.push(json);
    routed.push(
      (pairs !== undefined || !hasRefKeys(market) ? swapped(json, bare, idJson, venueJson) : undefined) ??
        JSON.stringify({ ...withoutBinaryRefs(market), eventId: facts.id, sourceExchange: facts.venue }),
    );
  }
  const json = withMarkets(JSON.stringify({ ...event, markets: placeholder }), `[${stored.join(',')}]`) ?? JSON.stringify({ ...event, markets: bareMarkets });
  return { json, refs: refs.every((pairs) => pairs === '') ? '' : refs.join(';'), router: routerJsonText(event, facts, `[${routed.join(',')}]`) };
}

/** Stands where the markets go in a serialised shell: a number, never produced by a string or an object around it. */
const placeholder = 0;
const placeholderMember = '"markets":0';

/** The shell with its markets in place; undefined when the placeholder member is not found exactly once (a nested `markets: 0`). */
function withMarkets(shell: string, markets: string): string | undefined {
  const at = shell.indexOf(placeholderMember);
  if (at < 0 || shell.indexOf(placeholderMember, at + 1) >= 0) return undefined;
  return `${shell.slice(0, at)}"markets":${markets}${shell.slice(at + placeholderMember.length)}`;
}

/**
 * The Router's view (see `routerView` in document.ts) around its markets.
 * Its members before `markets` are strings, so the placeholder found first
 * is the shell's own.
 */
function routerJsonText(event: Event, facts: RouterFacts, markets: string): string {
  const shell = JSON.stringify({
    id: facts.id,
    title: event.title,
    description: event.description,
    slug: event.slug,
    markets: placeholder,
    volume24h: event.volume24h,
    ...(event.volume !== undefined ? { volume: event.volume } : {}),
    url: event.url,
    ...(event.image !== undefined ? { image: event.image } : {}),
    category: facts.category,
    ...(event.tags !== undefined ? { tags: event.tags } : {}),
    sourceMetadata: {
      ...event.sourceMetadata,
      venueEventId: event.id,
      ...(event.category ? { venueCategory: event.category } : {}),
    },
    sourceExchange: facts.venue,
  });
  const at = shell.indexOf(placeholderMember);
  return `${shell.slice(0, at)}"markets":${markets}${shell.slice(at + placeholderMember.length)}`;
}

/**
 * The market's JSON with the values of its `eventId` and `sourceExchange`
 * members replaced: what `{ ...market, eventId, sourceExchange }` serialises
 * to. Only when both are strings and each member (key and value) occurs once
 * in the text: a key is the only place `"eventId":` can start (inside a
 * string its quotes are escaped), so one occurrence is the market's own.
 */
function swapped(json: string, market: Market, idJson: string, venueJson: string): string | undefined {
  const { eventId, sourceExchange } = market as { eventId?: unknown; sourceExchange?: unknown };
  if (typeof eventId !== 'string' || typeof sourceExchange !== 'string') return undefined;
  const idMember = `"eventId":${JSON.stringify(eventId)}`;
  const venueMember = `"sourceExchange":${JSON.stringify(sourceExchange)}`;
  const idAt = onlyAt(json, idMember);
  const venueAt = onlyAt(json, venueMember);
  if (idAt === undefined || venueAt === undefined) return undefined;
  // Members never overlap: a member's text starts at its key and ends with its string value.
  const [first, firstMember, firstValue, second, secondMember, secondValue] =
    idAt < venueAt ? [idAt, idMember, idJson, venueAt, venueMember, venueJson] : [venueAt, venueMember, venueJson, idAt, idMember, idJson];
  const firstKey = firstMember.slice(0, firstMember.indexOf(':') + 1);
  const secondKey = secondMember.slice(0, secondMember.indexOf(':') + 1);
  return (
    json.slice(0, first) +
    firstKey +
    firstValue +
    json.slice(first + firstMember.length, second) +
    secondKey +
    secondValue +
    json.slice(second + secondMember.length)
  );
}

/** Where `member` is in `text`, when it is there exactly once. */
function onlyAt(text: string, member: string): number | undefined {
  const at = text.indexOf(member);
  return at >= 0 && text.lastIndexOf(member) === at ? at : undefined;
}

/** A convenience reference left in the market (not trailing, or not one of its outcomes): its Router view is serialised apart. */
function hasRefKeys(market: Market): boolean {
  const members = market as unknown as Record<string, unknown>;
  return members.yes !== undefined || members.no !== undefined || members.up !== undefined || members.down !== undefined;
}
