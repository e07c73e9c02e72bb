import { expect } from 'chai';
import { parsePlatformMail } from '@subshare/core';

/** A raw one-part HTML message, as the mailbox reader hands it over. */
const rawHtmlMail = (from: string, subject: string, html: string) =>
  [`From: ${from}`, 'To: family@example.test', `Subject: ${subject}`, 'MIME-Version: 1.0', 'Content-Type: text/html; charset=utf-8', '', html].join('\r\n');

describe('received platform mail: HTML entities are decoded once, as a browser does', () => {
  it('a link whose href holds `&amp;lt;` keeps the text `&lt;` (was: `<`, a different token)', async () => {
    const html = '<a href="https://www.netflix.com/account/travel/verify?nftoken=T0k&amp;lt;x=1&amp;amp;g=2">Get Code</a>';
    const mail = await parsePlatformMail(rawHtmlMail('Netflix <info@account.netflix.com>', 'Your temporary access code', html));
    expect(mail?.kind).to.equal('householdLink');
    const link = new URL(mail!.value);
    expect(link.searchParams.get('nftoken')).to.equal('T0k');
    expect(link.searchParams.get('lt;x')).to.equal('1');
    expect(link.searchParams.get('amp;g')).to.equal('2');
  });

  it('text written as `&amp;#49;23456` is not the code 123456; named and numeric entities are read', async () => {
    const decoy = await parsePlatformMail(rawHtmlMail('ChatGPT <noreply@tm.openai.com>', 'Log in', '<p>Your verification code: &amp;#49;23456</p>'));
    expect(decoy).to.equal(undefined);
    const real = await parsePlatformMail(
      rawHtmlMail('ChatGPT <noreply@tm.openai.com>', 'Log in', '<p>Your verification code&nbsp;&rarr;&#x20;<b>&#52;81516</b></p>'),
    );
    expect(real?.value).to.equal('481516');
  });
});
