import { Writable } from 'node:stream';
import { expect } from 'chai';
import { acceptRequestId, createLogger, currentRequestId, REQUEST_ID_PATTERN, runWithRequestId } from '@subshare/core';

describe('request context', () => {
  it('accepts a safe offered id and replaces anything else with a new random one', () => {
    for (const safe of ['a', 'A.b_c:d-9', 'x'.repeat(64), '0123e4567-e89b-12d3-a456-426614174000']) expect(acceptRequestId(safe)).to.equal(safe);
    for (const unsafe of [undefined, '', 'x'.repeat(65), 'abc\r\nSet-Cookie: a=b', 'line\nbreak', 'tab\there', 'spa ce', '<script>', 'ü', ['a']]) {
      const id = acceptRequestId(unsafe);
      expect(id, JSON.stringify(unsafe)).to.match(REQUEST_ID_PATTERN).and.not.equal(unsafe);
    }
    expect(acceptRequestId(undefined)).to.not.equal(acceptRequestId(undefined));
  });

  it('keeps the id across awaits and timers, and only inside the run', async () => {
    expect(currentRequestId()).to.equal(undefined);
    const seen = await runWithRequestId('req-1', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const inner = await Promise.all([runWithRequestId('req-2', async () => currentRequestId()), Promise.resolve().then(() => currentRequestId())]);
      return [currentRequestId(), ...inner];
    });
    expect(seen).to.deep.equal(['req-1', 'req-2', 'req-1']);
    expect(runWithRequestId('req-3', () => runWithRequestId(undefined, () => currentRequestId()))).to.equal(undefined);
    expect(currentRequestId()).to.equal(undefined);
  });

  it("puts the current id on every logger line, child loggers' and error lines included; a line's own requestId wins", () => {
    let written = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.info('outside');
    runWithRequestId('req-42', () => {
      logger.info('inside');
      logger.child({ component: 'x' }).error({ err: new Error('boom') }, 'failed');
      logger.info({ requestId: 'explicit' }, 'own id');
    });
    const lines = written
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; requestId?: string });
    expect(lines.map((line) => [line.msg, line.requestId])).to.deep.equal([
      ['outside', undefined],
      ['inside', 'req-42'],
      ['failed', 'req-42'],
      ['own id', 'explicit'],
    ]);
    expect(written.match(/"requestId"/g)).to.have.length(3); // never twice on one line
  });
});
