import { withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus, Outcome, Series } from '@predgate/core';
import { createRandom, round } from './random.js';
import type { Random } from './random.js';
import { edgeCaseEvents } from './edge-cases.js';
import * as words from './vocabulary.js';
import type { MockCategory } from './vocabulary.js';

export const venueId = 'mock';
const site = 'https://mock.predgate.dev';
const day = 86_400_000;

export interface CatalogOptions {
  seed: string;
  eventCount: number;
  /** Adds the edge-case events (`./edge-cases.ts`). */
  edgeCases?: boolean;
  /** Dates are laid out around this instant (the start of its UTC day). */
  now: number;
}

export interface SimulatedCatalog {
  /** Highest 24h volume first. */
  events: Event[];
  /** Every market of every event, highest 24h volume first. */
  markets: Market[];
  series: Series[];
  event(id: string): Event | undefined;
  market(id: string): Market | undefined;
  outcome(id: string): { outcome: Outcome; market: Market } | undefined;
}

/** What a theme decides about an event before numbers are drawn. */
interface EventPlan {
  title: string;
  markets: Array<{ question: string; labels: string[] }>;
  /** Relative likelihoods of the markets resolving yes, when they are alternatives of one another. */
  exclusive: boolean;
  series?: { id: string; title: string; recurrence: string };
  rule: string;
}

type Theme = (random: Random, count: number, year: number, date: string) => EventPlan;

export function generateCatalog(options: CatalogOptions): SimulatedCatalog {
  const base = Math.floor(options.now / day) * day;
  const events: Event[] = [];
  const seriesById = new Map<string, Series>();
  for (let index = 0; index < options.eventCount; index += 1) {
    const { event, series } = generateEvent(`${options.seed}:${index}`, `mock-e${index}`, base);
    events.push(event);
    if (series && !seriesById.has(series.id)) seriesById.set(series.id, series);
  }
  if (options.edgeCases) events.push(...edgeCaseEvents(base, venueId));
  events.sort((a, b) => b.volume24h - a.volume24h || (a.id < b.id ? -1 : 1));

  const eventById = new Map(events.map((event) => [event.id, event]));
  const marketById = new Map<string, Market>();
  const outcomeById = new Map<string, { outcome: Outcome; market: Market }>();
  for (const event of events) {
    for (const market of event.markets) {
      marketById.set(market.marketId, market);
      for (const outcome of market.outcomes) outcomeById.set(outcome.outcomeId, { outcome, market });
    }
  }
  const markets = events.flatMap((event) => event.markets).sort((a, b) => b.volume24h - a.volume24h || (a.marketId < b.marketId ? -1 : 1));
  return {
    events,
    markets,
    series: [...seriesById.values()],
    event: (id) => eventById.get(id),
    market: (id) => marketById.get(id),
    outcome: (id) => outcomeById.get(id),
  };
}

function generateEvent(seed: string, id: string, base: number): { event: Event; series?: Series } {
  const random = createRandom(seed);
  const category = random.pick(words.categories);
  // A quarter of events hold one market; the rest hold 2 to 12, about 5.5 on average.
  const count = random.chance(0.25) ? 1 : random.int(2, 12);
  const closed = random.chance(0.12);
  const createdAt = base - random.int(2, 400) * day;
  const resolvesAt = closed ? base - random.int(1, 120) * day : base + random.int(1, 700) * day + random.int(0, 23) * 3_600_000;
  const year = new Date(resolvesAt).getUTCFullYear();
  const date = `${words.months[new Date(resolvesAt).getUTCMonth()]} ${new Date(resolvesAt).getUTCDate()}`;
  const plan = themes[category](random, count, year, date);

  const slug = `${slugify(plan.title)}-${id.slice('mock-e'.length)}`;
  const totalVolume = round(random.logUniform(50, 50_000_000), 2);
  const dailyShare = random.float(0.002, 0.15);
  const weights = plan.markets.map(() => random.logUniform(1, 20));
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  const yesPrices = closed ? resolvedPrices(random, plan) : livePrices(random, plan);
  const tags = [category.toLowerCase().replace(' ', '-'), ...topicTags(plan.title), String(year)];

  const markets = plan.markets.map((planned, index) => {
    const marketId = `${id}-m${index}`;
    const share = weights[index]! / weightSum;
    const volume = round(totalVolume * share, 2);
    return withBinaryRefs<Market>({
      marketId,
      eventId: id,
      title: planned.question,
      description: `${plan.rule} Resolves by ${new Date(resolvesAt).toISOString().slice(0, 10)}.`,
      slug: `${slugify(planned.question)}-${id.slice('mock-e'.length)}-${index}`,
      outcomes: outcomes(random, marketId, planned.labels, yesPrices[index]!, closed),
      resolutionDate: new Date(resolvesAt).toISOString(),
      volume24h: closed ? 0 : round(volume * dailyShare, 2),
      volume,
      liquidity: closed ? 0 : round(random.logUniform(100, 2_000_000) * share, 2),
      openInterest: round(volume * random.float(0.05, 0.5), 2),
      url: `${site}/event/${slug}`,
      category,
      tags,
      tickSize: 0.01,
      status: (closed ? 'resolved' : 'active') satisfies MarketStatus,
      sourceExchange: venueId,
    });
  });
  for (const market of markets) {
    // A settled market names its winner, the outcome it paid 1 on.
    const winner = closed ? market.outcomes.find((outcome) => outcome.price === 1) : undefined;
    if (winner) market.sourceMetadata = { winningOutcomeId: winner.outcomeId };
    // Near the edges of the price range the venue quotes in tenths of a cent, as Polymarket does,
    // which leaves room for at least five levels on each side of every book.
    if (market.outcomes.some((outcome) => priceOf(outcome) < 0.15 || priceOf(outcome) > 0.85)) market.tickSize = 0.001;
  }

  const event: Event = {
    id,
    title: plan.title,
    description: `${plan.rule} ${markets.length > 1 ? `The event holds ${markets.length} markets.` : ''}`.trim(),
    slug,
    markets,
    volume24h: round(
      markets.reduce((sum, market) => sum + market.volume24h, 0),
      2,
    ),
    volume: round(
      markets.reduce((sum, market) => sum + (market.volume ?? 0), 0),
      2,
    ),
    url: `${site}/event/${slug}`,
    image: `${site}/images/${id}.png`,
    category,
    tags,
    sourceExchange: venueId,
    sourceMetadata: {
      createdAt: new Date(createdAt).toISOString(),
      ...(plan.series ? { series: plan.series.id } : {}),
      mutuallyExclusive: plan.exclusive,
    },
  };
  const series: Series | undefined = plan.series && {
    id: plan.series.id,
    ticker: plan.series.id.toUpperCase(),
    slug: plan.series.id,
    title: plan.series.title,
    recurrence: plan.series.recurrence,
    category,
    tags: tags.slice(0, -1),
    url: `${site}/series/${plan.series.id}`,
    sourceExchange: venueId,
  };
  return { event, series };
}

/** Probability of each market's first outcome; alternatives of one event share one unit of probability. */
function livePrices(random: Random, plan: EventPlan): number[] {
  if (!plan.exclusive) return plan.markets.map(() => random.float(0.03, 0.97));
  const weights = plan.markets.map(() => random.logUniform(0.05, 10));
  const sum = weights.reduce((total, weight) => total + weight, 0);
  return weights.map((weight) => Math.min(0.98, Math.max(0.02, weight / sum)));
}

function resolvedPrices(random: Random, plan: EventPlan): number[] {
  const winner = random.int(0, plan.markets.length - 1);
  return plan.markets.map((_, index) => (plan.exclusive ? (index === winner ? 1 : 0) : random.chance(0.5) ? 1 : 0));
}

function outcomes(random: Random, marketId: string, labels: string[], firstPrice: number, closed: boolean): Outcome[] {
  if (labels.length === 2) {
    const yes = closed ? firstPrice : round(Math.min(0.98, Math.max(0.02, firstPrice)), 3);
    const change = closed ? 0 : round(random.float(-0.05, 0.05), 3);
    return [
      { outcomeId: `${marketId}-0`, marketId, label: labels[0]!, price: yes, priceChange24h: change },
      { outcomeId: `${marketId}-1`, marketId, label: labels[1]!, price: round(1 - yes, 3), priceChange24h: -change },
    ];
  }
  const weights = labels.map(() => random.logUniform(0.1, 10));
  const sum = weights.reduce((total, weight) => total + weight, 0);
  const winner = random.int(0, labels.length - 1);
  return labels.map((label, index) => ({
    outcomeId: `${marketId}-${index}`,
    marketId,
    label,
    price: closed ? (index === winner ? 1 : 0) : round(Math.max(0.02, weights[index]! / sum), 3),
    priceChange24h: closed ? 0 : round(random.float(-0.03, 0.03), 3),
  }));
}

const yesNo = ['Yes', 'No'];
const person = (random: Random) => `${random.pick(words.firstNames)} ${random.pick(words.lastNames)}`;

function field(random: Random, count: number, names: string[], question: (name: string) => string, title: string, rule: string): EventPlan {
  if (count === 1) {
    // One multi-outcome market instead of one binary market per contender.
    return { title, markets: [{ question: title, labels: names.slice(0, random.int(3, 6)) }], exclusive: false, rule };
  }
  return { title, markets: names.slice(0, count).map((name) => ({ question: question(name), labels: yesNo })), exclusive: true, rule };
}

const themes: Record<MockCategory, Theme> = {
  Politics: (random, count, year) => {
    const country = random.pick(words.countries);
    const office = random.pick(words.offices);
    const names = Array.from({ length: 12 }, () => person(random));
    return field(
      random,
      count,
      [...new Set(names)],
      (name) => `Will ${name} win the ${year} ${country} ${office} election?`,
      `${country} ${office} election ${year}`,
      `Resolves to the candidate declared winner of the ${year} ${country} ${office} election.`,
    );
  },
  World: (random, count, year) => {
    const [a, b] = random.sample(words.countries, 2) as [string, string];
    if (count === 1) {
      return {
        title: `Will ${a} and ${b} sign a peace treaty in ${year}?`,
        markets: [{ question: `Will ${a} and ${b} sign a peace treaty in ${year}?`, labels: yesNo }],
        exclusive: false,
        rule: `Resolves Yes if ${a} and ${b} sign a treaty in ${year}.`,
      };
    }
    const parties = words.parties.concat(words.countries.map((country) => `${country} coalition`));
    return field(
      random,
      count,
      parties,
      (party) => `Will the ${party} lead the next ${a} government?`,
      `Next government of ${a}`,
      `Resolves to the party that leads the next government of ${a}.`,
    );
  },
  Sports: (random, count, year) => {
    const league = random.pick(words.leagues);
    if (count <= 4) {
      const [home, away] = random.sample(words.teams, 2) as [string, string];
      const line = random.int(150, 230) + 0.5;
      const markets = [
        { question: `${home} vs. ${away}`, labels: [home, away] },
        { question: `${home} vs. ${away}: total points over ${line}?`, labels: ['Over', 'Under'] },
        { question: `${home} vs. ${away}: winning margin`, labels: ['1-5', '6-10', '11-15', '16+'] },
        { question: `Will ${home} lead at half-time against ${away}?`, labels: yesNo },
      ];
      return { title: `${league}: ${home} vs. ${away}`, markets: markets.slice(0, count), exclusive: false, rule: `Settles on the official ${league} result.` };
    }
    return field(
      random,
      count,
      random.sample(words.teams, words.teams.length),
      (team) => `Will the ${team} win the ${year} ${league}?`,
      `${league} ${year} champion`,
      `Resolves to the champion of the ${year} ${league}.`,
    );
  },
  Crypto: (random, count, _year, date) => {
    const coin = random.pick(words.coins);
    if (count === 1) {
      return {
        title: `${coin.name} up or down on ${date}?`,
        markets: [{ question: `${coin.name} up or down on ${date}?`, labels: ['Up', 'Down'] }],
        exclusive: false,
        series: { id: `${coin.symbol.toLowerCase()}-daily-up-down`, title: `${coin.name} daily up or down`, recurrence: 'daily' },
        rule: `Resolves Up if ${coin.symbol}/USD closes ${date} above its open.`,
      };
    }
    const step = coin.price * 0.02;
    const strikes = Array.from({ length: count }, (_, index) => coin.price + (index - Math.floor(count / 2)) * step);
    return {
      title: `${coin.name} price on ${date}`,
      markets: strikes.map((strike) => ({ question: `Will ${coin.name} be above $${formatMoney(strike)} on ${date}?`, labels: yesNo })),
      exclusive: false,
      series: { id: `${coin.symbol.toLowerCase()}-daily-price`, title: `${coin.name} daily price`, recurrence: 'daily' },
      rule: `Each market resolves Yes if ${coin.symbol}/USD is above its strike at 12:00 UTC on ${date}.`,
    };
  },
  Economy: (random, count, year, date) => {
    const bank = random.pick(words.centralBanks);
    if (count === 1) {
      return {
        title: `${bank} decision in ${date.split(' ')[0]} ${year}`,
        markets: [{ question: `${bank} decision in ${date.split(' ')[0]} ${year}`, labels: ['Cut 50+ bps', 'Cut 25 bps', 'No change', 'Hike'] }],
        exclusive: false,
        series: { id: `${slugify(bank)}-decisions`, title: `${bank} rate decisions`, recurrence: 'monthly' },
        rule: `Resolves to the decision announced by the ${bank}.`,
      };
    }
    const country = random.pick(words.countries);
    const indicator = random.pick(words.indicators);
    return {
      title: `${country} ${indicator} for ${date.split(' ')[0]} ${year}`,
      markets: Array.from({ length: count }, (_, index) => ({
        question: `Will ${country} ${indicator} be above ${(index * 0.25).toFixed(2)}%?`,
        labels: yesNo,
      })),
      exclusive: false,
      rule: `Each market resolves Yes if the published ${indicator} figure exceeds its threshold.`,
    };
  },
  Science: (random, count, year) => {
    const agency = random.pick(words.agencies);
    const mission = random.pick(words.missions);
    const quarters = Array.from({ length: 12 }, (_, index) => `${words.months[index]} ${year}`);
    return field(
      random,
      count,
      quarters,
      (month) => `Will ${agency} fly ${mission} by ${month}?`,
      `When will ${agency} fly ${mission}?`,
      `Resolves on the date of launch as reported by ${agency}.`,
    );
  },
  Tech: (random, count, year) => {
    const product = random.pick(words.products);
    return field(
      random,
      count,
      random.sample(words.companies, words.companies.length).concat(['Another company', 'No one']),
      (company) => `Will ${company} ship ${product} first in ${year}?`,
      `First to ship ${product} in ${year}`,
      `Resolves to the first company to ship ${product} to the public.`,
    );
  },
  'Pop Culture': (random, count, year) => {
    const award = random.pick(words.awards);
    return field(
      random,
      count,
      random.sample(words.films, words.films.length).concat(['Sunlit Roads', 'Hollow Crown', 'Blue Static', 'Night Orchard', 'Other']),
      (film) => `Will ${film} win best picture at the ${year} ${award}?`,
      `${award} ${year}: best picture`,
      `Resolves to the winner announced at the ${year} ${award}.`,
    );
  },
};

function topicTags(title: string): string[] {
  const lower = title.toLowerCase();
  const topics: Array<[string, string]> = [
    ['election', 'elections'],
    ['bitcoin', 'bitcoin'],
    ['ethereum', 'ethereum'],
    ['solana', 'solana'],
    ['up or down', 'up-or-down'],
    ['decision', 'central-banks'],
    ['inflation', 'inflation'],
    ['champion', 'championships'],
    [' vs. ', 'games'],
    ['government', 'geopolitics'],
    ['treaty', 'geopolitics'],
    ['best picture', 'awards'],
    ['ship ', 'ai'],
  ];
  return [...new Set(topics.filter(([needle]) => lower.includes(needle)).map(([, tag]) => tag))];
}

function formatMoney(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(value >= 1 ? 2 : 3);
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

/** Every simulated outcome is priced: the model allows an unknown price, the simulation never makes one. */
export function priceOf(outcome: Outcome): number {
  if (outcome.price === undefined) throw new Error(`simulated outcome ${outcome.outcomeId} has no price`);
  return outcome.price;
}
