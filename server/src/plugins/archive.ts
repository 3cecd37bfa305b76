import { createReadStream, statSync } from 'node:fs';
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi';
import { PredgateError } from '@predgate/core';
import Joi from 'joi';
import type { DependencyContainer } from 'tsyringe';
import { archiveToken } from '../archive/archive-service.js';
import { documented } from '../docs/route-paths.js';
import { rejectInput } from './router.js';

const filesQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(1_000).default(100),
  offset: Joi.number().integer().min(0).default(0),
});
const fileParams = Joi.object({
  name: Joi.string().pattern(/^polymarket_orderbook_\d{4}-\d{2}-\d{2}T\d{2}\.parquet$/),
});

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
      options: {
        ...documented({
          operationId: 'archiveFiles',
          summary: 'The archive’s hourly Parquet files of Polymarket L2 books (pmxt v2 columns), oldest first; the open hour appears once it is complete.',
          tags: ['Archive'],
          responses: {
            '200': {
              description: 'A page of files.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['success', 'data', 'meta'],
                    properties: {
                      success: { const: true },
                      data: {
                        type: 'array',
                        items: {
                          type: 'object',
                          required: ['name', 'hour', 'size', 'rows', 'sha256'],
                          properties: {
                            name: { type: 'string' },
                            hour: { type: 'string', format: 'date-time' },
                            size: { type: 'integer' },
                            rows: { type: 'integer' },
                            sha256: { type: 'string' },
                          },
                        },
                      },
                      meta: { type: 'object', properties: { total: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' } } },
                    },
                  },
                },
              },
            },
            '400': { $ref: '#/components/responses/Status400' },
          },
        }),
        validate: { query: filesQuery, failAction: rejectInput },
      },
      handler: (request: Request) => {
        const { limit, offset } = request.query as { limit: number; offset: number };
        const files = service.archive.listFiles();
        return { success: true, data: files.slice(offset, offset + limit), meta: { total: files.length, limit, offset } };
      },
    });

    server.route({
      method: 'GET',
      path: '/archive/files/{name}',
      options: {
        ...documented({
          operationId: 'archiveFile',
          summary: 'One hourly file, whole or by HTTP Range.',
          tags: ['Archive'],
          parameters: [{ name: 'range', in: 'header', schema: { type: 'string' }, description: 'bytes=start-end' }],
          responses: {
            '200': { description: 'The file.', content: { 'application/vnd.apache.parquet': { schema: { type: 'string', contentEncoding: 'binary' } } } },
            '206': { description: 'The requested byte range.' },
            '404': { $ref: '#/components/responses/Status404' },
            '416': { description: 'The range lies outside the file.' },
          },
        }),
        validate: { params: fileParams, failAction: rejectInput },
        // Ranges are read here, by RFC 9110: hapi's own handling refuses unknown units and malformed ranges with 416.
        response: { ranges: false },
      },
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
