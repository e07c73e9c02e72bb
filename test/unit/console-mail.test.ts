import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONSOLE_MAIL_BEGIN, CONSOLE_MAIL_END, ConsoleMail, formatConsoleEmail, loadConfig } from '@subshare/core';

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'subshare-console-mail-'));

describe('console mail (demo mode without SMTP prints every e-mail)', () => {
  it('is on in demo mode without SMTP_URL only', () => {
    expect(new ConsoleMail(loadConfig({ DATA_DIR: dataDir() })).enabled).to.equal(true);
    expect(new ConsoleMail(loadConfig({ DATA_DIR: dataDir(), SMTP_URL: 'smtp://127.0.0.1:2525' })).enabled).to.equal(false);
    const production = loadConfig({
      DATA_DIR: dataDir(),
      DATABASE_URL: 'postgres://u:p@db.example:5432/shop',
      CREDENTIALS_KEY: 'ab'.repeat(32),
      TOKEN_SECRET: 'y'.repeat(48),
      ALLOW_DEMO_PAYMENTS: 'true',
    });
    expect(production.mail.smtpUrl).to.equal(undefined);
    expect(new ConsoleMail(production).enabled).to.equal(false);
  });

  it('frames recipient, subject and the text body, and drops terminal control sequences', () => {
    const printed = formatConsoleEmail({
      outboxId: 7,
      kindName: 'verificationCode',
      to: 'buyer@example.test',
      subject: 'Your code\u001b[2J',
      text: 'Hello \u001b]0;owned\u0007Kim,\r\n\r\nYour code: 123456\u202e\n',
    });
    const lines = printed.trimEnd().split('\n');
    expect(lines[0]).to.equal(CONSOLE_MAIL_BEGIN);
    expect(lines.at(-1)).to.equal(CONSOLE_MAIL_END);
    expect(lines).to.include('│ To:      buyer@example.test');
    expect(lines).to.include('│ Subject: Your code[2J');
    expect(lines).to.include('│ Your code: 123456');
    // eslint-disable-next-line no-control-regex -- the printed text must hold none of them
    expect(printed).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });
});
