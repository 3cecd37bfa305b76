import Joi from 'joi';

export interface MockConfig {
  /** Same seed, same venue. */
  seed: string;
  events: number;
  startingCash: number;
  /** How often the simulated streams tick, in ms. */
  tickMs: number;
  /** Adds events of the shapes venues send at their edges (settled, voided, huge, one that breaks the model). */
  edgeCases: boolean;
}

export const configSchema = Joi.object<MockConfig, true>({
  seed: Joi.string().default('predgate'),
  events: Joi.number().integer().min(1).max(1_000_000).default(2_000),
  startingCash: Joi.number().min(0).default(10_000),
  tickMs: Joi.number().integer().min(1).max(60_000).default(1_000),
  edgeCases: Joi.boolean().default(false),
});
