import type { ResponseToolkit } from '@hapi/hapi';
import type { JsonChunks } from '@predgate/catalog';

/**
 * Stored JSON sent as it is, its length known up front. A large body goes out
 * as its chunks (copying a few hundred kilobytes per request costs more than
 * the stream); a small one is cheaper joined than streamed.
 */
export function sendJson(h: ResponseToolkit, json: JsonChunks) {
  const body = json.length > 64 * 1024 ? json.stream() : Buffer.concat(json.chunks, json.length);
  return h.response(body).type('application/json; charset=utf-8').header('content-length', String(json.length));
}
