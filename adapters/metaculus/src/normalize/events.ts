import { compact, complement, roundTo, text, toIsoDate, withBinaryRefs } from '@predgate/core';
import type { Event, Market, MarketStatus, Outcome } from '@predgate/core';
import type { RawAggregate, RawPost, RawQuestion } from '../api/schemas.js';
import { venueId } from '../venue.js';

const postUrl = (id: number) => `https://www.metaculus.com/questions/${id}/`;

/**
 * A post is an event; its questions are its markets: the post's own question
 * (market id = post id), each question of a group (`<post>:<question>`), or
 * the two branches of a conditional (`<post>:<question>`, titled by their
 * condition). A notebook (no question) is no event: undefined.
 */
export function normalizePost(post: RawPost): Event | undefined {
  const markets = marketsOf(post);
  if (markets.length === 0) return undefined;
  const id = String(post.id);
  const category = post.projects?.category?.[0]?.name;
  return compact({
    id,
    title: post.title,
    description: text(post.question?.description) ?? text(post.group_of_questions?.description) ?? text(post.question?.resolution_criteria) ?? '',
    slug: text(post.slug) ?? text(post.url_title) ?? id,
    url: postUrl(post.id),
    image: text(post.projects?.default_project?.header_image),
    markets,
    // A forecasting platform trades nothing: there is no volume.
    volume24h: 0,
    category,
    tags: tagsOf(post),
    sourceExchange: venueId,
    sourceMetadata: compact({
      status: post.status ?? undefined,
      forecasters: post.nr_forecasters ?? undefined,
      forecasts: post.forecasts_count ?? undefined,
      comments: post.comment_count ?? undefined,
      tournaments: post.projects?.tournament?.map((tournament) => tournament.slug ?? tournament.name),
    }),
  });
}

function marketsOf(post: RawPost): Market[] {
  const eventId = String(post.id);
  if (post.question) return [normalizeQuestion(post, post.question, eventId, post.title)];
  if (post.group_of_questions) {
    return post.group_of_questions.questions.map((question) =>
      normalizeQuestion(post, question, `${post.id}:${question.id}`, text(question.title) ?? `${post.title}: ${question.label ?? question.id}`),
    );
  }
  if (post.conditional) {
    const { condition, question_yes: ifYes, question_no: ifNo } = post.conditional;
    const conditionTitle = text(condition.title) ?? `question ${condition.id}`;
    return [
      normalizeQuestion(post, ifYes, `${post.id}:${ifYes.id}`, `If "${conditionTitle}" resolves Yes: ${text(ifYes.title) ?? post.title}`),
      normalizeQuestion(post, ifNo, `${post.id}:${ifNo.id}`, `If "${conditionTitle}" resolves No: ${text(ifNo.title) ?? post.title}`),
    ];
  }
  return [];
}

/**
 * One question. Binary and multiple-choice questions have outcomes priced by
 * the community prediction; numeric, discrete and date questions forecast a
 * quantity, not outcomes, so they have none, and their community median and
 * quartiles (in the question's unit, or as dates) are in `sourceMetadata`. A
 * prediction the account may not see (`latest: null`) leaves prices out.
 */
export function normalizeQuestion(post: RawPost, question: RawQuestion, marketId: string, title: string): Market {
  const latest = latestOf(question);
  const outcomes = outcomesOf(question, marketId, latest);
  const winner = winnerOf(question);
  return withBinaryRefs(
    compact({
      marketId,
      eventId: String(post.id),
      title,
      description: text(question.description) ?? text(question.resolution_criteria) ?? '',
      url: postUrl(post.id),
      outcomes,
      resolutionDate: toIsoDate(question.scheduled_resolve_time) ?? toIsoDate(post.scheduled_resolve_time) ?? toIsoDate(question.scheduled_close_time),
      volume24h: 0,
      liquidity: 0,
      status: statusOf(question.status ?? post.status),
      category: post.projects?.category?.[0]?.name,
      tags: tagsOf(post),
      sourceExchange: venueId,
      sourceMetadata: compact({
        questionId: question.id,
        questionType: question.type,
        communityPredictionAvailable: latest !== undefined,
        forecasters: latest?.forecaster_count ?? undefined,
        resolution: question.resolution ?? undefined,
        winningOutcomeId: winner === undefined ? undefined : outcomes[winner]?.outcomeId,
        unit: text(question.unit),
        communityPrediction: question.type === 'binary' || question.type === 'multiple_choice' ? undefined : quantityForecast(question, latest),
      }),
    }),
  );
}

/**
 * Outcomes priced by the community prediction, or, once the question
 * resolved to one of them, 1 for the winner and 0 for the others.
 */
function outcomesOf(question: RawQuestion, marketId: string, latest: RawAggregate | undefined): Outcome[] {
  const winner = winnerOf(question);
  const settled = (index: number, price: number | undefined) => (winner === undefined ? price : index === winner ? 1 : 0);
  if (question.type === 'binary') {
    // `centers` carry P(yes) alone; `forecast_values` is [P(no), P(yes)].
    const yes = latest?.centers?.[0] ?? latest?.forecast_values?.[1];
    return [
      compact({ outcomeId: `${question.id}-YES`, marketId, label: 'Yes', price: settled(0, yes) }),
      compact({ outcomeId: `${question.id}-NO`, marketId, label: 'No', price: settled(1, yes === undefined ? undefined : complement(yes)) }),
    ];
  }
  if (question.type === 'multiple_choice') {
    return (question.options ?? []).map((label, index) =>
      compact({ outcomeId: `${question.id}-${index}`, marketId, label, price: settled(index, latest?.forecast_values?.[index]) }),
    );
  }
  return [];
}

/**
 * The index of the outcome a resolved question names: `yes`/`no` on a binary
 * question, an option's label on a multiple-choice one. An annulled or
 * ambiguous question, or a quantity, names none.
 */
function winnerOf(question: RawQuestion): number | undefined {
  const resolution = question.resolution ?? undefined;
  if (resolution === undefined) return undefined;
  if (question.type === 'binary') return resolution === 'yes' ? 0 : resolution === 'no' ? 1 : undefined;
  if (question.type !== 'multiple_choice') return undefined;
  const index = (question.options ?? []).indexOf(resolution);
  return index === -1 ? undefined : index;
}

/** The prediction the account can see, from the question's default aggregation; undefined when withheld or not yet revealed. */
function latestOf(question: RawQuestion): RawAggregate | undefined {
  const method = question.default_aggregation_method ?? 'recency_weighted';
  return question.aggregations?.[method]?.latest ?? undefined;
}

/**
 * A continuous forecast's median and quartiles in the question's own terms:
 * the API gives them on an internal 0–1 axis, mapped back linearly, or
 * logarithmically when the question has a `zero_point`; date questions count
 * seconds, given as ISO dates.
 */
function quantityForecast(question: RawQuestion, latest: RawAggregate | undefined): Record<string, unknown> | undefined {
  const median = latest?.centers?.[0];
  const { range_min: min, range_max: max, zero_point: zero } = question.scaling ?? {};
  if (median === undefined || min == null || max == null) return undefined;
  const scale = (x: number) => {
    if (zero == null) return min + x * (max - min);
    const ratio = (max - zero) / (min - zero);
    return min + ((max - min) * (ratio ** x - 1)) / (ratio - 1);
  };
  const value = (x: number | undefined) => {
    if (x === undefined) return undefined;
    return question.type === 'date' ? toIsoDate(Math.round(scale(x))) : roundTo(scale(x), 6);
  };
  return compact({ median: value(median), lowerQuartile: value(latest?.interval_lower_bounds?.[0]), upperQuartile: value(latest?.interval_upper_bounds?.[0]) });
}

const statuses: Record<string, MarketStatus> = { open: 'active', upcoming: 'inactive', closed: 'closed', resolved: 'resolved' };

/** Curation states (draft, pending, rejected) and unknown words leave the status out. */
function statusOf(status: string | null | undefined): MarketStatus | undefined {
  return status ? statuses[status] : undefined;
}

function tagsOf(post: RawPost): string[] | undefined {
  const names = [...(post.projects?.category ?? []), ...(post.projects?.tag ?? [])].map((project) => project.name).filter(Boolean);
  return names.length > 0 ? names : undefined;
}
