import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger } from '@subshare/core';

describe('logger', () => {
  it('never writes passwords, tokens, codes or authorization headers', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.info({ password: 'hunter2-secret', token: 'eyJ.secret.token', code: '123456' }, 'top level');
    logger.info({ body: { email: 'a@b.test', password: 'hunter2-secret', code: '654321' } }, 'nested');
    logger.info({ req: { headers: { authorization: 'Bearer eyJ.secret.token', cookie: 'sid=secret' } } }, 'headers');
    logger.info({ user: { credentials: { password: 'deep-secret' } } }, 'deeper');
    const output = lines.join('');
    for (const secret of ['hunter2-secret', 'eyJ.secret.token', '123456', '654321', 'sid=secret', 'deep-secret']) {
      expect(output).to.not.contain(secret);
    }
    expect(output).to.contain('a@b.test');
    expect(output.match(/\[redacted\]/g)?.length).to.be.at.least(7);
  });

  it('keeps error codes, which are not secrets', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    createLogger('info', sink).error({ err: Object.assign(new Error('duplicate'), { code: '23505' }) }, 'db error');
    expect(lines.join('')).to.contain('23505');
  });
});
