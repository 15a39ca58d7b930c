import { storableJson, storableText } from '../../../src/db/storable';

// What PostgreSQL's text and jsonb cannot hold (a NUL, an unpaired surrogate) becomes U+FFFD
// when it comes from outside and cannot be refused (docs/flows.md, "Reading executions").

describe('storable text', () => {
  it('replaces NUL and unpaired surrogates by U+FFFD and keeps the rest, surrogate pairs included', () => {
    expect(storableText('a\u0000b')).toBe('a\uFFFDb');
    expect(storableText('\ud800x\udc00')).toBe('\uFFFDx\uFFFD');
    expect(storableText('emoji 😀 stays')).toBe('emoji 😀 stays');
  });

  it('gives the same JSON as JSON.stringify when nothing needs replacing, a written-out \\u0000 included', () => {
    const value = { a: ['x', 1, null, { 'b\\u0000': 'c\\ud800' }], emoji: '😀' };
    expect(storableJson(value)).toBe(JSON.stringify(value));
  });

  it('replaces them in values and keys at any depth', () => {
    const json = storableJson({ rows: [{ note: 'a\u0000b', ['k\u0000']: { deep: ['\udfff'] } }] });
    expect(JSON.parse(json)).toEqual({ rows: [{ note: 'a\uFFFDb', ['k\uFFFD']: { deep: ['\uFFFD'] } }] });
  });
});
