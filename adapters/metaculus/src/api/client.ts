import { checkPayload } from '@predgate/core';
import type { QueryValue, VenueHttpClient } from '@predgate/core';
import type Joi from 'joi';
import { post, postsPage } from './schemas.js';
import type { RawPost } from './schemas.js';

/**
 * Metaculus' REST API (`/api/posts/`, trailing slashes required), every call
 * with `Authorization: Token <apiToken>`.
 */
export function metaculusApi(http: VenueHttpClient, baseUrl: string, authorization: () => Record<string, string>) {
  const get = async <T>(schema: Joi.Schema, endpoint: string, path: string, query?: Record<string, QueryValue>): Promise<T> =>
    checkPayload<T>(schema, await http.json({ url: `${baseUrl}${path}`, query, headers: authorization() }), { venue: http.venue, endpoint });

  return {
    /** `GET /posts/`: `statuses` goes as repeated keys, the form the API documents. */
    posts: (query: Record<string, QueryValue>) => get<{ next: string | null; results: RawPost[] }>(postsPage, 'GET /posts/', '/posts/', query),
    /** `GET /posts/{id}/`: one post with the community prediction of every sub-question. */
    post: (id: number) => get<RawPost>(post.required(), 'GET /posts/{id}/', `/posts/${id}/`),
  };
}

export type MetaculusApi = ReturnType<typeof metaculusApi>;
