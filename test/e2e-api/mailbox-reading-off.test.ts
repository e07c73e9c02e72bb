import { expect } from 'chai';
import type { Express } from 'express';
import type { Container } from 'inversify';
import { SystemClock } from '@subshare/core';
import { createApp } from '@subshare/http';
import { api, loginAs, type TestUser } from '../support/agent.js';
import { containerWith } from '../support/containers.js';
import type { TestDovecot } from '../support/dovecot.js';
import { mailboxAccount, subscribe } from '../support/mailboxes.js';

const LINK = '/api/email/getnvlink';
const CODE = '/api/email/getchgptcode';

/**
 * A shop without MAILBOX_IMAP_URL reads no mailbox (issue 14): the panel's link and code calls
 * answer at once that the mailbox cannot be read, with a code the panel stops on, and say what to
 * do: a buyer contacts support (no configuration names shown to buyers), staff set the variable.
 */
describe('API: household links and login codes when no mailbox server is configured', () => {
  let container: Container;
  let app: Express;
  let admin: TestUser;
  // No IMAP server at all: the mailboxes exist only in the shop's records.
  const noServer = { addUser: () => undefined } as unknown as TestDovecot;

  before(async () => {
    container = containerWith({ clock: new SystemClock() });
    app = createApp(container, { accessLog: false });
    admin = await loginAs('admin', { app });
  });

  async function holder(category: number): Promise<{ buyer: TestUser; subscriptionId: number }> {
    const mailbox = await mailboxAccount(container, noServer, category);
    const buyer = await loginAs('user', { app });
    return { buyer, subscriptionId: await subscribe(container, buyer, mailbox.platform) };
  }

  it('answers the buyer 503 mailbox_reading_off at once, telling them to contact support, for links and codes', async () => {
    const video = await holder(0);
    const aiChat = await holder(8);
    for (const [path, { buyer, subscriptionId }] of [
      [LINK, video],
      [CODE, aiChat],
    ] as const) {
      const answer = await api(app).get(path).set(buyer.auth).query({ subscriptionId }).expect(503);
      expect(answer.body).to.deep.equal({
        message: "This shop cannot read the accounts' mailboxes at the moment, so the link or code cannot be fetched. Please contact support.",
        code: 'mailbox_reading_off',
      });
      // Not a passing outage: nothing says to come back later.
      expect(answer.headers['retry-after']).to.equal(undefined);
    }
  });

  it('tells staff which setting is missing', async () => {
    const { subscriptionId } = await holder(8);
    const answer = await api(app).get(CODE).set(admin.auth).query({ subscriptionId }).expect(503);
    expect(answer.body.code).to.equal('mailbox_reading_off');
    expect(answer.body.message).to.equal(
      'Mailboxes are not read on this shop: MAILBOX_IMAP_URL is not set. Set it to the IMAP server that holds the mailboxes (imap:// or imaps://host:port) and restart the shop.',
    );
  });

  it('still refuses whoever may not read the mailbox first, and a platform of the wrong kind', async () => {
    const { subscriptionId } = await holder(0);
    const stranger = await loginAs('user', { app });
    expect((await api(app).get(LINK).set(stranger.auth).query({ subscriptionId }).expect(403)).body.code).to.equal('forbidden');
    const { buyer, subscriptionId: videoSubscription } = await holder(0);
    expect((await api(app).get(CODE).set(buyer.auth).query({ subscriptionId: videoSubscription }).expect(409)).body.code).to.equal('wrong_platform_type');
  });
});
