import { createReadStream, statSync } from 'node:fs';
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { PredgateError } from '@predgate/core';
import type { DependencyContainer } from 'tsyringe';
import { archiveToken } from '../archive/archive-service.js';

/**
 * The archive's hourly Parquet files: `GET /archive/files` lists them (pages
 * of `limit` from `offset`), `GET /archive/files/{name}` sends one, whole or
 * by HTTP Range. The open hour appears only once it is rolled and complete.
 */
export const archivePlugin: Plugin<{ container: DependencyContainer }> = {
  name: 'predgate-archive',
  register(server, { container }) {
    const service = container.resolve(archiveToken);

    server.route({
      method: 'GET',
      path: '/archive/files',
      handler: (request: Request) => {
        const limit = pageNumber(request.query.limit, 'limit', 100, 1, 1_000);
        const offset = pageNumber(request.query.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
        const files = service.archive.listFiles();
        return { success: true, data: files.slice(offset, offset + limit), meta: { total: files.length, limit, offset } };
      },
    });

    server.route({
      method: 'GET',
      path: '/archive/files/{name}',
      handler: (request: Request, h: ResponseToolkit) => {
        const name = (request.params as { name: string }).name;
        const path = service.archive.filePath(name);
        if (!path) throw new PredgateError('NOT_FOUND', `No archive file named "${name}"`, { detail: { name } });
        const size = statSync(path).size;
        const range = readRange(request.headers.range as string | undefined, size);
        if (range === 'unsatisfiable') {
          return h.response().code(416).header('content-range', `bytes */${size}`).header('accept-ranges', 'bytes');
        }
        const { start, end } = range ?? { start: 0, end: size - 1 };
        const response = h
          .response(createReadStream(path, { start, end }))
          .type('application/vnd.apache.parquet')
          .header('accept-ranges', 'bytes')
          .header('content-length', String(end - start + 1))
          .header('content-disposition', `attachment; filename="${name}"`);
        return range ? response.code(206).header('content-range', `bytes ${start}-${end}/${size}`) : response;
      },
    });
  },
};

function pageNumber(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new PredgateError('BAD_REQUEST', `${name} must be an integer from ${min} to ${max}`, { detail: { [name]: value } });
  }
  return number;
}

/** One `bytes=` range (first-last, first-, or -suffix); absent or malformed headers mean the whole file, as RFC 9110 allows. */
function readRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
