import { expect } from 'chai';
import { chooseEncoding } from '../../packages/http/src/serializers/cached-json.js';

/** The JSON answers' encoding, read from Accept-Encoding by `negotiator`: brotli when taken at all, else gzip. */
describe('Accept-Encoding of JSON answers', () => {
  const cases: Array<[string | undefined, 'br' | 'gzip' | undefined]> = [
    [undefined, undefined],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['BR', 'br'],
    ['gzip;q=1, br;q=0.1', 'br'],
    ['*', 'br'],
    ['*;q=0', undefined],
    // An explicit entry wins over `*`.
    ['br;q=0, *', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} → ${String(expected)}`, () => {
      expect(chooseEncoding(header)).to.equal(expected);
      expect(chooseEncoding(header), 'remembered').to.equal(expected);
    });
  }
});
