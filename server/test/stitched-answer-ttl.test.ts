import { expect, test, vi } from 'vitest';
import { AnswerStore } from '../src/plugins/answer-store.js';
import { JsonAnswers } from '../src/plugins/json-answers.js';

test('a stitched gzip answer is kept once, when made: asked again it is found, never kept anew (which would restart its time to live)', async () => {
  const answers = new JsonAnswers({ cacheBytes: 1 << 20, cacheSeconds: 60 });
  const negotiated = answers.negotiate('gzip, deflate, br');
  const json = Buffer.from(JSON.stringify({ data: 'x'.repeat(8_192) }));
  const stitched = Buffer.from('stitched gzip bytes');
  const gzipped = vi.fn(() => stitched);
  const kept = vi.spyOn(AnswerStore.prototype, 'set');
  try {
    for (let asked = 0; asked < 3; asked += 1) {
      expect(await answers.answer(json, negotiated, 'page-1', gzipped)).toEqual({ body: stitched, sentAs: 'gzip' });
    }
    expect(gzipped).toHaveBeenCalledTimes(1);
    expect(kept).toHaveBeenCalledTimes(1);
  } finally {
    kept.mockRestore();
  }
});
