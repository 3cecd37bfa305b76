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
      // Ranges are read here, by RFC 9110: hapi's own handling refuses unknown units and malformed ranges with 416.
      options: { response: { ranges: false } },
      handler: (request: Request, h: ResponseToolkit) => {
        const name = (request.params as { name: string }).name;
        const file = service.archive.listFiles().find((listed) => listed.name === name);
        const path = file && service.archive.filePath(name);
        if (!file || !path) throw new PredgateError('NOT_FOUND', `No archive file named "${name}"`, { detail: { name } });
        const size = statSync(path).size;
        // A published file never changes: its SHA-256 is a strong validator.
        const etag = `"${file.sha256}"`;
        const lastModified = new Date(statSync(path).mtimeMs).toUTCString();
        const ifRange = request.headers['if-range'] as string | undefined;
        const range =
          ifRange === undefined || ifRange === etag || ifRange === lastModified ? readRange(request.headers.range as string | undefined, size) : undefined;
        if (range === 'unsatisfiable') {
          return h.response().code(416).header('content-range', `bytes */${size}`).header('accept-ranges', 'bytes');
        }
        const { start, end } = range ?? { start: 0, end: size - 1 };
        const response = h
          .response(createReadStream(path, { start, end }))
          .type('application/vnd.apache.parquet')
          .etag(file.sha256)
          .header('last-modified', lastModified)
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

/**
 * One `bytes=` range (first-last, first-, or -suffix), by RFC 9110: a Range of
 * another unit, a malformed one (last before first, several ranges, no
 * numbers) or none at all means the whole file; a valid range that starts
 * past the end is unsatisfiable.
 */
function readRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/i.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1) };
}
