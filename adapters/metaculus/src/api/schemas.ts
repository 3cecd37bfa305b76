import { venueValue } from '@predgate/core';
import Joi from 'joi';

/**
 * Metaculus' payloads: schemas describe the members read. Lists (posts, a
 * group's questions) are checked item by item: one unreadable post or
 * sub-question is left out as drift with its id, the rest read.
 */

export interface RawAggregate {
  centers?: number[] | null;
  interval_lower_bounds?: number[] | null;
  interval_upper_bounds?: number[] | null;
  forecast_values?: number[] | null;
  forecaster_count?: number | null;
}

export interface RawQuestion {
  id: number;
  title?: string | null;
  label?: string | null;
  description?: string | null;
  resolution_criteria?: string | null;
  type: 'binary' | 'multiple_choice' | 'numeric' | 'discrete' | 'date';
  options?: string[] | null;
  status?: string | null;
  resolution?: string | null;
  scheduled_close_time?: string | null;
  scheduled_resolve_time?: string | null;
  actual_close_time?: string | null;
  unit?: string | null;
  scaling?: { range_min?: number | null; range_max?: number | null; zero_point?: number | null } | null;
  aggregations?: Record<string, { latest?: RawAggregate | null } | undefined> | null;
  default_aggregation_method?: string | null;
}

export interface RawPost {
  id: number;
  title: string;
  slug?: string | null;
  url_title?: string | null;
  status?: string | null;
  scheduled_close_time?: string | null;
  scheduled_resolve_time?: string | null;
  nr_forecasters?: number | null;
  forecasts_count?: number | null;
  comment_count?: number | null;
  projects?: {
    category?: Array<{ name: string }> | null;
    tag?: Array<{ name: string }> | null;
    tournament?: Array<{ slug?: string | null; name: string }> | null;
    default_project?: { header_image?: string | null } | null;
  } | null;
  question?: RawQuestion | null;
  group_of_questions?: { description?: string | null; questions: RawQuestion[] } | null;
  conditional?: { condition: RawQuestion; question_yes: RawQuestion; question_no: RawQuestion } | null;
}

const fraction = Joi.number().min(0).max(1);
const aggregate = Joi.object({
  centers: Joi.array().items(fraction).allow(null),
  interval_lower_bounds: Joi.array().items(fraction).allow(null),
  interval_upper_bounds: Joi.array().items(fraction).allow(null),
  forecast_values: Joi.array().items(fraction).allow(null),
  forecaster_count: Joi.number().integer().min(0).allow(null),
});
const text = Joi.string().allow('', null);
const time = venueValue.time().allow(null, '');
const question = Joi.object({
  id: Joi.number().integer().required(),
  title: text,
  label: text,
  description: text,
  resolution_criteria: text,
  type: Joi.string().valid('binary', 'multiple_choice', 'numeric', 'discrete', 'date').required(),
  options: Joi.array().items(Joi.string().allow('')).allow(null),
  status: text,
  resolution: text,
  scheduled_close_time: time,
  scheduled_resolve_time: time,
  actual_close_time: time,
  unit: text,
  scaling: Joi.object({ range_min: Joi.number().allow(null), range_max: Joi.number().allow(null), zero_point: Joi.number().allow(null) }).allow(null),
  aggregations: Joi.object()
    .pattern(Joi.string(), Joi.object({ latest: aggregate.allow(null) }))
    .allow(null),
  default_aggregation_method: text,
});
const named = Joi.array()
  .items(Joi.object({ name: Joi.string().allow('').required() }))
  .allow(null);
export const post = Joi.object({
  id: Joi.number().integer().required(),
  title: Joi.string().allow('').required(),
  slug: text,
  url_title: text,
  status: text,
  scheduled_close_time: time,
  scheduled_resolve_time: time,
  nr_forecasters: Joi.number().integer().allow(null),
  forecasts_count: Joi.number().integer().allow(null),
  comment_count: Joi.number().integer().allow(null),
  projects: Joi.object({ category: named, tag: named, tournament: named, default_project: Joi.object({ header_image: text }).allow(null) }).allow(null),
  question: question.allow(null),
  group_of_questions: Joi.object({ description: text, questions: venueValue.items(question, { id: 'id' }).required() }).allow(null),
  conditional: Joi.object({ condition: question.required(), question_yes: question.required(), question_no: question.required() }).allow(null),
});
export const postsPage = Joi.object({ next: Joi.string().allow(null), results: venueValue.items(post, { id: 'id' }).required() }).required();
