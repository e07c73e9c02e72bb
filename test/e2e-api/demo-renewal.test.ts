import { expect } from 'chai';
import type { Express } from 'express';
import { type AppConfig, CatalogService, ExpiryFlow, RenewalFlow } from '@subshare/core';
import { createApp } from '@subshare/http';
import { api, loginAs } from '../support/agent.js';
import { moveClockTo, subscriptionOf } from '../support/auto-renewal.js';
import { containerWith } from '../support/containers.js';
import { harness, useWorker } from '../support/harness.js';
import { createAccount, createPlatform, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

useWorker();

const DAY = 24 * 3600_000;
const AUTO_RENEWAL = 12;

/**
 * Automatic renewal in the demo (issue 34, item 5): `npm start` without Stripe keys and without
 * SMTP_URL. The demo provider's page saves the demo card the buyer chooses when they tick "Renew
 * automatically"; the reminder printed on the console counts as delivered; the renewal pass charges
 * the card: the one ending 4242 pays, the one ending 0002 is declined and the buyer sees dunning.
 * A shop in demo mode (the harness's configuration with mode `demo` and no SMTP_URL), the clock
 * driven by the test, the passes called as the worker's jobs call them.
 */
describe('automatic renewal in the demo (no Stripe keys, no SMTP)', function () {
  this.timeout(90_000);
  let app: Express;
  let renewal: RenewalFlow;
  let expiry: ExpiryFlow;
  let platform: TestPlatform;
  const knex = () => harness().knex;

  before(async () => {
    const config: AppConfig = { ...harness().config, mode: 'demo', mail: { ...harness().config.mail, smtpUrl: undefined } };
    const container = containerWith({ config });
    app = createApp(container, { accessLog: false });
    renewal = container.get(RenewalFlow);
    expiry = container.get(ExpiryFlow);
    platform = await createPlatform({ slotsCount: 4 });
    container.get(CatalogService).invalidate();
    await createAccount(platform.id, 4);
  });

  const chargeOf = (subscriptionId: number) => knex()('renewal_charges').where({ subscription_id: subscriptionId }).orderBy('id', 'desc').first();
  const subscriptionRow = (id: number) => knex()('subscriptions').where({ id }).first();
  const outcomeOf = (run: Awaited<ReturnType<RenewalFlow['renewDue']>>, subscriptionId: number) =>
    run.charges.filter((charge) => charge.subscriptionId === subscriptionId).map((charge) => charge.outcome);
  const renewalMails = async (userId: number) =>
    ((await knex()('email_outbox').where({ user_id: userId, kind: AUTO_RENEWAL }).orderBy('id')) as Array<{ subject: string; status: string }>).map(
      (row) => row.subject,
    );

  /** A buyer orders, ticks "Renew automatically", and pays on the demo page with the demo card chosen there. */
  async function buyWithDemoCard(card: '4242' | '0002' | undefined) {
    const buyer = await loginAs('user', { app });
    const { body: order } = await api(app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, currency: 'EUR' })
      .expect(200);
    expect((await api(app).get('/api/payment/autorenew').expect(200)).body).to.deep.equal({ available: true });
    const { body: checkout } = await api(app)
      .post('/api/payment/createcheckoutsession')
      .set(buyer.auth)
      .send({ orderId: order.id, renewAutomatically: true })
      .expect(200);
    const page = await api(app).get(new URL(checkout.url).pathname).expect(200);
    expect(page.text).to.contain('data-testid="demo-card-choice"').and.contain('value="0002"');
    const token = decodeURIComponent(new URL(checkout.url).pathname.split('/').pop()!);
    await api(app)
      .post('/api/webhook/demo')
      .type('form')
      .send({ token, outcome: 'paid', ...(card ? { card } : {}) })
      .expect(303);
    await waitFor(async () => (await knex()('orders').where({ id: order.id }).first()).state === 2, { what: 'the order activated' });
    const subscription = await subscriptionOf(order.id);
    return { buyer, orderId: order.id as number, subscription };
  }

  /** The card learnt, the reminder written (printed on the console: no SMTP), the clock at the end of the period. */
  async function remindedAndDue(subscription: { id: number; ends_at: Date }) {
    await renewal.renewDue();
    moveClockTo(subscription.ends_at.getTime() - 2 * DAY);
    expect((await expiry.remindDue()).subscriptionIds).to.include(subscription.id);
    const reminder = await knex()('email_outbox')
      .where({ idempotency_key: (await chargeOf(subscription.id)).reminder_key })
      .first();
    // Kept in the outbox, not sent by anyone: in demo mode the console is its delivery.
    expect(reminder.status).to.equal('kept');
    moveClockTo(subscription.ends_at.getTime() + 60_000);
    // The first charge: at the end, and not before RENEWAL_NOTICE_HOURS (48) after the reminder was printed.
    return Math.max(subscription.ends_at.getTime(), reminder.created_at.getTime() + 2 * DAY);
  }

  it('the demo page refuses an unknown demo card; paid without the box ticked: no card page, the panel says link, the switch is refused', async () => {
    const buyer = await loginAs('user', { app });
    const { body: opting } = await api(app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, currency: 'EUR' })
      .expect(200);
    const { body: saving } = await api(app)
      .post('/api/payment/createcheckoutsession')
      .set(buyer.auth)
      .send({ orderId: opting.id, renewAutomatically: true })
      .expect(200);
    const savingToken = decodeURIComponent(new URL(saving.url).pathname.split('/').pop()!);
    await api(app).post('/api/webhook/demo').type('form').send({ token: savingToken, outcome: 'paid', card: '1234' }).expect(400);

    // Paid without the box ticked: no card saved, and the demo has no page to save one later, so
    // the panel says a payment link comes by e-mail rather than offering a switch that cannot work.
    const { body: order } = await api(app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, languageId: 1, currency: 'EUR' })
      .expect(200);
    const { body: checkout } = await api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: order.id }).expect(200);
    expect((await api(app).get(new URL(checkout.url).pathname).expect(200)).text).not.to.contain('demo-card-choice');
    const token = decodeURIComponent(new URL(checkout.url).pathname.split('/').pop()!);
    await api(app).post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' }).expect(303);
    await waitFor(async () => (await knex()('orders').where({ id: order.id }).first()).state === 2, { what: 'the order activated' });
    const subscription = await subscriptionOf(order.id);
    const panel = await api(app).get('/api/user/getuserpanel').query({ id: buyer.id, languageId: 1 }).set(buyer.auth).expect(200);
    const autoRenew = panel.body.subscribers.find((entry: { subscribeId: number }) => entry.subscribeId === subscription.id).autoRenew;
    expect(autoRenew).to.include({ mode: 'link', enabled: false, canEnable: false });
    const refused = await api(app).post('/api/subscribe/autorenew').set(buyer.auth).send({ subscriptionId: subscription.id, enabled: true }).expect(409);
    expect(refused.body.code).to.equal('autorenew_unavailable');
  });

  it('the demo card ending 4242: reminded on the console, charged at the end date, the same subscription renewed', async () => {
    const { buyer, subscription } = await buyWithDemoCard('4242');
    expect((await renewal.renewDue()).cardsLearnt).to.be.at.least(1);
    const state = (await api(app).get('/api/user/getuserpanel').query({ id: buyer.id, languageId: 1 }).set(buyer.auth).expect(200)).body.subscribers.find(
      (entry: { subscribeId: number }) => entry.subscribeId === subscription.id,
    ).autoRenew;
    expect(state).to.include({ mode: 'card', enabled: true, cardLast4: '4242' });

    await remindedAndDue(subscription);
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['succeeded']);
    expect(await chargeOf(subscription.id)).to.include({ status: 'succeeded', attempts: 1 });
    const end = subscription.ends_at.getTime();
    await waitFor(async () => (await subscriptionRow(subscription.id)).ends_at.getTime() > end, { what: 'the subscription renewed' });
    const renewalOrder = await knex()('orders')
      .where({ id: (await chargeOf(subscription.id)).order_id })
      .first();
    expect(renewalOrder.state).to.equal(2);
    expect(
      (await knex()('payments').where({ order_id: renewalOrder.id })).map((row: { provider: string; status: string }) => [row.provider, row.status]),
    ).to.deep.equal([['demo', 'paid']]);
    expect(await renewalMails(buyer.id)).to.satisfy((subjects: string[]) => subjects.some((subject) => /renewed/i.test(subject)));
  });

  it('the demo card ending 0002: declined at the end date and retried after 1 and 3 days, the slot held, then the buyer is told it ended', async () => {
    const { buyer, subscription } = await buyWithDemoCard('0002');
    const first = await remindedAndDue(subscription);
    const end = subscription.ends_at.getTime();
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['declined']);
    let charge = await chargeOf(subscription.id);
    expect(charge).to.include({ status: 'retrying', attempts: 1, failures: 1, decline_code: 'card_declined', card_last4: '0002' });
    expect(charge.next_attempt_at.getTime()).to.equal(first + DAY);
    // The slot is held through the retries.
    await expiry.endDue();
    expect(await subscriptionRow(subscription.id)).to.include({ status: 'active' });

    moveClockTo(end + DAY + 60_000);
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['declined']);
    moveClockTo(end + 3 * DAY + 60_000);
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['failed']);
    charge = await chargeOf(subscription.id);
    expect(charge).to.include({ status: 'failed', attempts: 3, failures: 3 });
    const subjects = await renewalMails(buyer.id);
    expect(subjects.filter((subject) => /could not renew/i.test(subject))).to.have.length(2);
    expect(subjects.filter((subject) => /has ended/i.test(subject))).to.have.length(1);
    await expiry.endDue();
    expect((await subscriptionRow(subscription.id)).status).not.to.equal('active');
    expect((await subscriptionRow(subscription.id)).ends_at.getTime()).to.equal(end);
  });
});
