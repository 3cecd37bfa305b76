import { compact, complement, settledBinaryMarket, toFraction, withBinaryRefs } from '@predgate/core';
import type { Event, Market } from '@predgate/core';
import type { OutcomeMeta, RawOutcome, RawQuestion } from '../api/schemas.js';
import { venueId } from '../venue.js';
import { assetIdOf, coinOf, standaloneEventId } from '../ids.js';

const tradeUrl = (outcome: number) => `https://app.hyperliquid.xyz/trade/%23${10 * outcome}`;

/**
 * Events and markets from `outcomeMeta` and `allMids`: one event per
 * question, its markets the named outcomes, the fallback outcome (tradable,
 * so listed) and the settled ones still described; an outcome no question
 * names (a recurring daily binary) is an event of its own.
 */
export function normalizeCatalog(meta: OutcomeMeta, mids: Record<string, string>): Event[] {
  const outcomes = new Map(meta.outcomes.map((outcome) => [outcome.outcome, outcome]));
  const settled = new Set(meta.questions.flatMap((question) => question.settledNamedOutcomes ?? []));
  const grouped = new Set<number>();
  const events = meta.questions.map((question) => {
    const members = [
      ...question.namedOutcomes,
      ...(question.fallbackOutcome == null ? [] : [question.fallbackOutcome]),
      ...(question.settledNamedOutcomes ?? []),
    ];
    const markets = [...new Set(members)]
      .map((id) => outcomes.get(id))
      .filter((outcome): outcome is RawOutcome => outcome !== undefined)
      .map((outcome) => {
        grouped.add(outcome.outcome);
        return normalizeMarket(outcome, question, mids, settled.has(outcome.outcome));
      });
    return questionEvent(question, markets);
  });
  const standalone = meta.outcomes
    .filter((outcome) => !grouped.has(outcome.outcome))
    .map((outcome) => standaloneEvent(normalizeMarket(outcome, undefined, mids, settled.has(outcome.outcome)), outcome));
  return [...events, ...standalone];
}

function questionEvent(question: RawQuestion, markets: Market[]): Event {
  const spec = specOf(question.description);
  const id = String(question.question);
  return compact({
    id,
    title: spec.class === 'priceBucket' && spec.underlying ? `${spec.underlying} price range${expiryText(spec.expiry)}` : question.name,
    description: question.description,
    slug: id,
    url: markets[0]?.url ?? '',
    markets: markets.map((market) => ({ ...market, eventId: id })),
    volume24h: 0,
    category: categoryOf(spec, question.description),
    tags: tagsOf(spec, question.description),
    sourceExchange: venueId,
    sourceMetadata: compact({
      question: question.question,
      fallbackOutcome: question.fallbackOutcome ?? undefined,
      settledNamedOutcomes: question.settledNamedOutcomes ?? [],
    }),
  });
}

function standaloneEvent(market: Market, outcome: RawOutcome): Event {
  const id = standaloneEventId(outcome.outcome);
  return compact({
    id,
    title: market.title,
    description: market.description,
    slug: id,
    url: market.url,
    markets: [{ ...market, eventId: id }],
    volume24h: 0,
    category: market.category,
    tags: market.tags,
    sourceExchange: venueId,
    sourceMetadata: { outcome: outcome.outcome },
  });
}

/**
 * One outcome: a binary contract whose sides are its outcomes, in the order
 * of `sideSpecs` (the order the encoding counts), labelled as the venue names
 * them (`Yes`/`No`, or two teams). The price of each side is its mid; a side
 * without one is the complement of the other, and a market with neither has
 * no prices.
 */
export function normalizeMarket(raw: RawOutcome, question: RawQuestion | undefined, mids: Record<string, string>, settled: boolean): Market {
  const marketId = String(raw.outcome);
  const spec = { ...(question ? specOf(question.description) : {}), ...specOf(raw.description) };
  const [first, second] = [0, 1].map((side) => toFraction(mids[coinOf({ outcome: raw.outcome, side: side as 0 | 1 })]));
  const prices = [first ?? (second === undefined ? undefined : complement(second)), second ?? (first === undefined ? undefined : complement(first))];
  return withBinaryRefs(
    compact({
      marketId,
      eventId: question ? String(question.question) : standaloneEventId(raw.outcome),
      title: marketTitle(raw, question, spec),
      description: raw.description,
      slug: marketId,
      url: tradeUrl(raw.outcome),
      outcomes: raw.sideSpecs.map((sideSpec, side) =>
        compact({ outcomeId: assetIdOf({ outcome: raw.outcome, side: side as 0 | 1 }), marketId, label: sideSpec.name, price: prices[side] }),
      ),
      resolutionDate: resolutionDateOf(raw, question, spec),
      // HyperCore publishes no per-outcome volume or open interest.
      volume24h: 0,
      liquidity: 0,
      status: settled ? ('resolved' as const) : ('active' as const),
      category: categoryOf(spec, question?.description ?? raw.description),
      tags: tagsOf(spec, question?.description ?? raw.description),
      sourceExchange: venueId,
      sourceMetadata: compact({
        outcome: raw.outcome,
        question: question?.question,
        quoteToken: raw.quoteToken ?? undefined,
        coin: coinOf({ outcome: raw.outcome, side: 0 }),
        ...spec,
      }),
    }),
  );
}

/**
 * A settled market priced by its settlement: side 0 paid `settleFraction`
 * (1 when it won, 0 when it lost, 0.5 when the market was voided), side 1 the
 * rest. The winner is named in `sourceMetadata` when one side took all;
 * a void or split settlement names none.
 */
export function settledMarket(market: Market, settleFraction: string): Market {
  const paid = toFraction(settleFraction);
  return paid === undefined ? market : settledBinaryMarket(market, paid, { settleFraction });
}

type Spec = Record<string, string>;

/** The machine description `class:priceBinary|underlying:BTC|expiry:20260815-0600|...`; prose has none (`{}`). */
export function specOf(description: string): Spec {
  const text = description.trim();
  if (!/^[A-Za-z]+:[^\s]*$/.test(text)) return {};
  return Object.fromEntries(
    text
      .split('|')
      .map((pair) => pair.split(':'))
      .filter((pair) => pair.length === 2)
      .map(([key, value]) => [key!, value!]),
  );
}

/** `metadata=category:sports|subCategory:football` at the end of prose rules. */
function proseMetadata(description: string): Spec {
  const match = /metadata=(\S+)\s*$/.exec(description);
  return match ? specOf(match[1]!) : {};
}

function categoryOf(spec: Spec, description: string): string | undefined {
  if (spec.underlying) return 'Crypto';
  const category = proseMetadata(description).category;
  return category ? `${category[0]!.toUpperCase()}${category.slice(1)}` : undefined;
}

function tagsOf(spec: Spec, description: string): string[] {
  const metadata = proseMetadata(description);
  return ['Outcome Markets', spec.underlying, metadata.subCategory].filter((tag): tag is string => Boolean(tag));
}

function marketTitle(raw: RawOutcome, question: RawQuestion | undefined, spec: Spec): string {
  const usd = (value: string | undefined) => (value === undefined ? '?' : `$${Number(value).toLocaleString('en-US')}`);
  if (spec.class === 'priceBinary' && spec.underlying) return `${spec.underlying} above ${usd(spec.targetPrice)}${expiryText(spec.expiry)}`;
  if (spec.class === 'priceBucket' && spec.underlying && spec.index !== undefined) {
    const thresholds = (spec.priceThresholds ?? '').split(',').filter(Boolean);
    const index = Number(spec.index);
    const range =
      index === 0
        ? `below ${usd(thresholds[0])}`
        : index >= thresholds.length
          ? `above ${usd(thresholds.at(-1))}`
          : `${usd(thresholds[index - 1])} to ${usd(thresholds[index])}`;
    return `${spec.underlying} ${range}${expiryText(spec.expiry)}`;
  }
  if (question && raw.outcome === question.fallbackOutcome && raw.description.trim() === 'other') return `${question.name}: other`;
  return raw.name;
}

/** ` on 2026-08-15 06:00 UTC` from `20260815-0600`. */
function expiryText(expiry: string | undefined): string {
  const iso = expiryIso(expiry);
  return iso ? ` on ${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '';
}

function expiryIso(expiry: string | undefined): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})$/.exec(expiry ?? '');
  if (!match) return undefined;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(year, month - 1, day, hour, minute);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * The machine expiry, else the latest "Month D, YYYY [at HH:MM UTC]" in the
 * rules (a deadline by which the result must be declared), 23:59 UTC when no
 * time is given; absent when neither exists, never a made-up date.
 */
function resolutionDateOf(raw: RawOutcome, question: RawQuestion | undefined, spec: Spec): string | undefined {
  const fromSpec = expiryIso(spec.expiry);
  if (fromSpec) return fromSpec;
  const dates = [...`${raw.description}\n${question?.description ?? ''}`.matchAll(/([A-Z][a-z]+) (\d{1,2}), (\d{4})(?: at (\d{1,2}):(\d{2}) UTC)?/g)]
    .map(([, month, day, year, hour, minute]) => {
      const index = months.indexOf(month!.toLowerCase());
      return index === -1
        ? undefined
        : Date.UTC(Number(year), index, Number(day), hour === undefined ? 23 : Number(hour), minute === undefined ? 59 : Number(minute));
    })
    .filter((ms): ms is number => ms !== undefined && !Number.isNaN(ms));
  return dates.length > 0 ? new Date(Math.max(...dates)).toISOString() : undefined;
}
