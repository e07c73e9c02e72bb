import { expect } from 'chai';
import { fromSender, parseAuthenticationResults, parseFrom, parseMailboxList, speaksFor } from '@subshare/core';

/** Issue 33: the From line is read as RFC 5322 writes it; a quoted local part never stands for a domain. */
describe('From addresses (RFC 5322) and whose mail it is', () => {
  it('"x@evil.example"@netflix.com is netflix.com’s: the quoted @ belongs to the local part', () => {
    const from = parseFrom('"x@evil.example"@netflix.com')!;
    expect(from).to.include({ local: 'x@evil.example', domain: 'netflix.com' });
    expect(fromSender(from.address, ['evil.example'])).to.equal(false);
    expect(fromSender(from.address, ['x@evil.example'])).to.equal(false);
    expect(fromSender(from.address, ['netflix.com'])).to.equal(true);
  });

  it('<"x@netflix.com"@evil.example> is evil.example’s, with or without a display name', () => {
    for (const value of ['<"x@netflix.com"@evil.example>', 'Netflix <"x@netflix.com"@evil.example>', '"info@netflix.com" <a@evil.example>']) {
      const from = parseFrom(value)!;
      expect(from.domain, value).to.equal('evil.example');
      expect(fromSender(from.address, ['netflix.com']), value).to.equal(false);
      expect(fromSender(from.address, ['info@netflix.com', 'x@netflix.com']), value).to.equal(false);
    }
  });

  it('comments, folding and display names are not the address', () => {
    expect(parseFrom('info@account.netflix.com (a@evil.example)')?.address).to.equal('info@account.netflix.com');
    expect(parseFrom('a@evil.example <info@account.netflix.com>')).to.equal(undefined); // an unquoted @ in a display name is no RFC 5322 phrase
    expect(parseFrom('"Netflix, Inc." (support)\r\n <Info@Account.Netflix.COM>')?.address).to.equal('info@account.netflix.com');
    expect(parseFrom('=?UTF-8?B?64S37ZSM66at7Iqk?= <info@netflix.com>')?.domain).to.equal('netflix.com');
  });

  it('no author, several authors or a broken line is no address (DMARC cannot be evaluated)', () => {
    expect(parseFrom('a@netflix.com, b@evil.example')).to.equal(undefined);
    expect(parseMailboxList('a@netflix.com, "b" <b@evil.example>')?.map((mailbox) => mailbox.domain)).to.deep.equal(['netflix.com', 'evil.example']);
    for (const broken of ['', 'netflix.com', '"x@netflix.com', 'a@b@netflix.com', '<a@netflix.com', 'a@[127.0.0.1]', 'a@netflix.com (x']) {
      expect(parseFrom(broken), broken).to.equal(undefined);
    }
  });

  it('the address keeps the quotes a local part needs, so it stays one mailbox', () => {
    expect(parseFrom('"x@evil.example"@Netflix.com')?.address).to.equal('"x@evil.example"@netflix.com');
    expect(parseFrom('"a\\"b" <"a\\"b"@x.example>')?.local).to.equal('a"b');
    expect(parseFrom('<"a\\"b"@x.example>')?.address).to.equal('"a\\"b"@x.example');
    expect(parseFrom('a . b@netflix.com')?.address).to.equal('a.b@netflix.com'); // obsolete form: the spaces are folding
    expect(parseFrom('John Q. Public <@relay.example:jq@netflix.com>')?.address).to.equal('jq@netflix.com'); // a source route is not the address
  });

  it('groups count their mailboxes; a domain that is no host name, or an overlong line, is no address', () => {
    expect(parseMailboxList('undisclosed: a@netflix.com, b@evil.example;')?.map((mailbox) => mailbox.domain)).to.deep.equal(['netflix.com', 'evil.example']);
    expect(parseMailboxList('undisclosed-recipients:;')).to.deep.equal([]);
    for (const broken of ['a@net_flix.com', 'a@-netflix.com', 'a@netflix.com.', 'a@netflix..com', 'a@netflix.com, b@[127.0.0.1]']) {
      expect(parseMailboxList(broken), broken).to.equal(undefined);
    }
    // The parser's time grows with the square of a hostile line's length: past RFC 5322's 998 characters it is not asked.
    expect(parseFrom(`${' '.repeat(5000)}a@netflix.com`)).to.equal(undefined);
    expect(parseFrom(`"${'a'.repeat(1000)}"@netflix.com`)).to.equal(undefined);
    expect(parseFrom(`(${'x'.repeat(900)}) a@netflix.com`)?.domain).to.equal('netflix.com');
    // Within the limit even deeply nested comments (recursion in the parser) are read, not thrown.
    expect(parseFrom(`${'('.repeat(450)}x${')'.repeat(450)} a@netflix.com`)?.domain).to.equal('netflix.com');
  });

  it('a found link is handed out only for the platform’s senders and link hosts', () => {
    const netflix = { senders: ['netflix.com'], linkHosts: ['www.netflix.com', 'netflix.com'] };
    const link = (host: string) => ({
      kind: 'householdLink' as const,
      value: `https://${host}/account/travel/verify?nftoken=abc`,
      from: 'info@account.netflix.com',
    });
    expect(speaksFor(link('www.netflix.com'), netflix)).to.equal(true);
    expect(speaksFor(link('www.netflix.com.evil.example'), netflix)).to.equal(false);
    expect(speaksFor(link('evil.example'), netflix)).to.equal(false);
    expect(speaksFor({ ...link('www.netflix.com'), from: 'info@evil.example' }, netflix)).to.equal(false);
    expect(speaksFor({ kind: 'loginCode', value: '123456', from: 'noreply@tm.openai.com' }, { senders: ['openai.com'], linkHosts: [] })).to.equal(true);
    expect(speaksFor(link('www.netflix.com'), { senders: ['netflix.com'], linkHosts: [] })).to.equal(false);
  });

  it('Authentication-Results: the authserv-id, each method’s result and properties, comments dropped', () => {
    const parsed = parseAuthenticationResults(
      'mx.shop.test 1; dkim=pass (good) header.d=netflix.com; spf=fail smtp.mailfrom=x; dmarc=pass (p=REJECT) header.from=account.netflix.com',
    );
    expect(parsed?.authservId).to.equal('mx.shop.test');
    expect(parsed?.methods.map((method) => [method.method, method.result])).to.deep.equal([
      ['dkim', 'pass'],
      ['spf', 'fail'],
      ['dmarc', 'pass'],
    ]);
    expect(parsed?.methods[2].properties['header.from']).to.equal('account.netflix.com');
  });
});
