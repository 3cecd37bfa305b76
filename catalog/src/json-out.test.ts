import { gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { deflatePiece } from './gzip-pieces.js';
import { JsonOut, wrapJson, wrapPiecedJson } from './json-out.js';

test('an answer is written into one shared buffer, grown past its first size, and copied out at its exact length', () => {
  const big = Buffer.alloc(300 * 1024, 'a');
  const placed = { length: 3, readInto: (target: Buffer, at: number) => target.write('"é', at) };
  const answer = wrapJson(
    (out) => {
      out.bytes(big);
      out.bytes(placed);
      out.text('€');
    },
    '[',
    ']',
  );
  expect(answer.length).toBe(1 + big.length + 3 + 3 + 1);
  expect(answer.toString('utf8')).toBe(`[${big.toString()}"é€]`);
  // The next answer starts from nothing, and the first keeps its bytes.
  expect(wrapJson((out) => out.text('1'), '{"a":', '}').toString()).toBe('{"a":1}');
  expect(answer.subarray(0, 2).toString()).toBe('[a');
});

test('room() keeps what was written when the buffer grows', () => {
  const out = new JsonOut();
  out.text('x'.repeat(200 * 1024));
  out.room(1024 * 1024).fill(0x79, out.length, out.length + 5);
  out.length += 5;
  expect(out.finish().toString()).toBe(`${'x'.repeat(200 * 1024)}yyyyy`);
});

test("an answer with marked views is gzipped from their pieces and the bytes between; without views, or with a piece not its view's length, it is not", () => {
  const view =
    (text: string, pieced = text) =>
    (out: JsonOut) => {
      const start = out.length;
      out.text(text);
      out.view(start, () => deflatePiece(Buffer.from(pieced)));
    };
  const answer = wrapPiecedJson(
    (out) => {
      out.text('[');
      view('{"a":"é"}')(out);
      out.text(',');
      view('{"b":2}')(out);
      out.text(']');
    },
    '{"data":',
    '}',
  );
  expect(answer.json.toString()).toBe('{"data":[{"a":"é"},{"b":2}]}');
  expect(gunzipSync(answer.gzip()!).equals(answer.json)).toBe(true);
  expect(wrapPiecedJson((out) => out.text('[]'), '{"data":', '}').gzip()).toBeUndefined();
  expect(wrapPiecedJson(view('{"a":1}', '{"a":12}'), '', '').gzip()).toBeUndefined();
  // A view marked by an answer that failed halfway is not carried into the next one.
  expect(() =>
    wrapPiecedJson(
      (out) => {
        view('{"a":1}')(out);
        throw new Error('unreadable');
      },
      '',
      '',
    ),
  ).toThrow('unreadable');
  expect(wrapPiecedJson((out) => out.text('[]'), '', '').gzip()).toBeUndefined();
});
