import { expect } from 'chai';
import type { Express } from 'express';
import { installationIdReader, type ExpiryFlow, type RenewalFlow } from '@subshare/core';
import { RENEWAL_ATTEMPTS } from '@subshare/core/promises';
import { api, logIn, loginAs, type TestUser } from '../support/agent.js';
import { buyByCard, moveClockTo, remindersDelivered, subscriptionOf, useRenewalShop } from '../support/auto-renewal.js';
import type { FakeStripe } from '../support/fake-stripe.js';
import { exited, spawnCli } from '../support/cli.js';
import { harness, testEnv, useWorker } from '../support/harness.js';
import { activation, createOrder, markPaidQuietly, type TestPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

useWorker();

const DAY = 24 * 3600_000;
/** What every Idempotency-Key of this shop starts with (the installation id of its database). */
const keyPrefix = async () => `subshare-${await installationIdReader(harness().knex)()}`;
const PANEL = '/api/user/getuserpanel';

/**
 * Automatic renewal (issue 28) against a local server speaking Stripe's protocol: Customers,
 * Checkout with setup_future_usage, off-session PaymentIntents (off_session + confirm, with an
 * Idempotency-Key), card declines, authentication_required, setup-mode Checkout. Time is driven by
 * the test clock; the renewal pass is called as the worker's job calls it. After each step: the
 * Stripe server's records, the subscription and its slot, the order, the e-mails, the audit log.
 */
describe('automatic renewal', function () {
  this.timeout(60_000);
  const shop = useRenewalShop();
  const { stripe } = shop;
  const knex = () => harness().knex;
  const clock = () => harness().clock;
  let app: Express;
  let base: string;
  let renewal: RenewalFlow;
  let expiry: ExpiryFlow;
  let platform: TestPlatform;
  before(() => ({ app, base, renewal, expiry, platform } = shop));

  const webhook = (delivery: ReturnType<FakeStripe['webhook']>) => stripe.deliver(`${base}/api/webhook/stripe`, delivery);
  const signedNow = () => ({ timestamp: Math.floor(clock().now().getTime() / 1000) });
  const chargeOf = (subscriptionId: number) => knex()('renewal_charges').where({ subscription_id: subscriptionId }).orderBy('id', 'desc').first();
  const outboxOf = (userId: number, kind: number) => knex()('email_outbox').where({ user_id: userId, kind }).orderBy('id');

  /** A buyer pays by card with "Renew automatically" ticked; answers the order, its subscription and the saved card. */
  const buyWithAutoRenewal = (options: { last4?: string; languageId?: 1 | 2 } = {}) => buyByCard(shop, options);

  /** What the pass did with this subscription's charge (other tests' subscriptions may come due in the same pass). */
  const outcomeOf = (run: Awaited<ReturnType<RenewalFlow['renewDue']>>, subscriptionId: number) =>
    run.charges.filter((charge) => charge.subscriptionId === subscriptionId).map((charge) => charge.outcome);

  /**
   * The reminder pass within 3 days of the end, and the e-mail it writes delivered by SMTP: sent
   * more than the 48 hours (RENEWAL_NOTICE_HOURS) ahead, so the charge is due at the end date.
   */
  async function remind(subscription: { id: number; ends_at: Date }, to: string) {
    moveClockTo(new Date(subscription.ends_at.getTime() - 2 * DAY - 3600_000));
    const { subscriptionIds } = await expiry.remindDue();
    expect(subscriptionIds).to.include(subscription.id);
    const mail = await harness().mailTo(to, (message) => /renews on|자동 연장됩니다/.test(message.subject));
    await remindersDelivered();
    return mail;
  }

  it('says where "Renew automatically" can be ticked: with Stripe, not with the demo provider, and refuses it for other methods', async () => {
    expect((await api(app).get('/api/payment/autorenew').expect(200)).body).to.deep.equal({ available: true });
    expect((await api().get('/api/payment/autorenew').expect(200)).body).to.deep.equal({ available: false });
    const buyer = await loginAs('user', { app });
    const { body: order } = await api(app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, currency: 'EUR' })
      .expect(200);
    await api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: order.id, renewAutomatically: 'yes' }).expect(400);
    const demoBuyer = await loginAs('user');
    const { body: demoOrder } = await api()
      .post('/api/order/insert')
      .set(demoBuyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, currency: 'EUR' })
      .expect(200);
    const refused = await api()
      .post('/api/payment/createcheckoutsession')
      .set(demoBuyer.auth)
      .send({ orderId: demoOrder.id, renewAutomatically: true })
      .expect(409);
    expect(refused.body.code).to.equal('autorenew_unavailable');
    // Default off: a plain card checkout saves nothing.
    await api(app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: order.id }).expect(200);
    expect(stripe.lastCreate!.params.customer).to.equal(undefined);
    expect(stripe.lastCreate!.params.payment_intent_data).to.not.have.property('setup_future_usage');
    expect(await knex()('auto_renewals').whereIn('order_item_id', knex()('order_items').select('id').where({ order_id: order.id }))).to.have.length(0);
  });

  it('saves the card at checkout, reminds 3 days ahead with amount, date, card and a cancel link, then charges once off-session and extends the same slot', async () => {
    const { buyer, orderId, subscription, card, create, customer } = await buyWithAutoRenewal({ last4: '4444' });
    // Checkout on the buyer's Stripe Customer with setup_future_usage=off_session (not customer_email).
    expect(create.params.customer).to.equal(customer);
    expect(create.params.customer_email).to.equal(undefined);
    expect((create.params.payment_intent_data as Record<string, unknown>).setup_future_usage).to.equal('off_session');
    expect(stripe.customers.get(customer)!.metadata.userId).to.equal(String(buyer.id));

    // The pass learns the card the payment saved; the panel shows it on, with date and amount.
    expect((await renewal.renewDue()).cardsLearnt).to.be.at.least(1);
    const panel = await api(app).get(PANEL).query({ id: buyer.id, languageId: 1 }).set(buyer.auth).expect(200);
    const item = panel.body.subscribers.find((entry: { subscribeId: number }) => entry.subscribeId === subscription.id);
    expect(item.autoRenew).to.include({ mode: 'card', enabled: true, canEnable: true, cardLast4: '4444', amount: 4.99, currencyCode: 'EUR' });
    expect(new Date(item.autoRenew.nextChargeAt).getTime()).to.equal(subscription.ends_at.getTime());

    // Nothing is charged before the reminder, even at the end date's pass before it.
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal([]);

    const mail = await remind(subscription, buyer.email);
    expect(mail.text).to.contain('€4.99').and.to.contain('4444').and.to.contain('/api/subscribe/autorenew/cancel?token=');
    const charge = await chargeOf(subscription.id);
    expect(charge).to.include({ status: 'scheduled', kind: 'auto', card_last4: '4444' });
    expect(Number(charge.amount_minor)).to.equal(499);

    // Not due before the end date.
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal([]);
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['succeeded']);

    // Stripe: one off-session PaymentIntent on the saved card, confirmed, with our Idempotency-Key.
    const charges = stripe.offSessionCharges().filter((intent) => intent.customer === customer);
    expect(charges).to.have.length(1);
    expect(charges[0]).to.include({ amount: 499, currency: 'eur', payment_method: card.id, off_session: true });
    const request = stripe.log.filter((entry) => entry.path === '/v1/payment_intents' && entry.params.customer === customer);
    expect(request).to.have.length(1);
    expect(request[0].params).to.include({ off_session: 'true', confirm: 'true' });
    expect(request[0].headers['idempotency-key']).to.equal(`${await keyPrefix()}-renewal-${subscription.id}-${subscription.ends_at.getTime()}-1`);

    // The renewal order was paid through the normal payment path and extended the same subscription on the same slot.
    const after = await chargeOf(subscription.id);
    expect(after.status).to.equal('succeeded');
    const renewalOrder = await knex()('orders').where({ id: after.order_id }).first();
    expect(renewalOrder.id).to.not.equal(orderId);
    await waitFor(async () => (await knex()('orders').where({ id: after.order_id }).first()).state === 2, { what: 'the renewal order completed' });
    const extended = await knex()('subscriptions').where({ id: subscription.id }).first();
    expect(extended).to.include({ status: 'active', slot: subscription.slot, platform_account_id: subscription.platform_account_id });
    expect(extended.ends_at.getTime()).to.be.greaterThan(subscription.ends_at.getTime() + 27 * DAY);
    expect(extended.held_until).to.equal(null);
    const event = await knex()('payment_events').where({ payment_id: after.payment_id }).first();
    expect(event.outcome).to.equal('paid');
    await harness().mailTo(buyer.email, (mail) => mail.subject.startsWith('Receipt'));

    // Another pass, a retried job: nothing more at Stripe.
    await renewal.renewDue();
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(1);
  });

  it('the switch: only the holder, audited; off cancels the charge to come and lets the held slot go', async () => {
    const { buyer, subscription, customer } = await buyWithAutoRenewal();
    await renewal.renewDue();
    const other = await loginAs('user', { app });
    await api(app).post('/api/subscribe/autorenew').set(other.auth).send({ subscriptionId: subscription.id, enabled: false }).expect(404);
    await api(app).post('/api/subscribe/autorenew').set(buyer.auth).send({ subscriptionId: subscription.id, enabled: 'no' }).expect(400);
    await api(app).post('/api/subscribe/autorenew').send({ subscriptionId: subscription.id, enabled: false }).expect(401);

    const off = await api(app).post('/api/subscribe/autorenew').set(buyer.auth).send({ subscriptionId: subscription.id, enabled: false }).expect(200);
    expect(off.body).to.include({ enabled: false, canEnable: true, nextChargeAt: null });
    const on = await api(app).post('/api/subscribe/autorenew').set(buyer.auth).send({ subscriptionId: subscription.id, enabled: true }).expect(200);
    expect(on.body).to.include({ enabled: true, cardLast4: '4444' });
    const audit = await knex()('audit_log')
      .where({ action: 'subscription.autorenew', target_id: String(subscription.id) })
      .orderBy('id');
    expect(audit.map((row: { details: { enabled: boolean } }) => row.details.enabled)).to.deep.equal([false, true]);
    expect(audit[0].actor_user_id).to.equal(buyer.id);

    await remind(subscription, buyer.email);
    expect((await knex()('subscriptions').where({ id: subscription.id }).first()).held_until).to.not.equal(null);
    const auth = (await logIn(buyer, app)).auth;
    const turn = (enabled: boolean) => api(app).post('/api/subscribe/autorenew').set(auth).send({ subscriptionId: subscription.id, enabled }).expect(200);
    await turn(false);
    expect((await chargeOf(subscription.id)).status).to.equal('cancelled');
    expect((await knex()('subscriptions').where({ id: subscription.id }).first()).held_until).to.equal(null);
    // On again before the end: the reminded period's charge is back, the slot held again; then off for the rest of this test.
    await turn(true);
    expect((await chargeOf(subscription.id)).status).to.equal('scheduled');
    expect((await knex()('subscriptions').where({ id: subscription.id }).first()).held_until).to.not.equal(null);
    await turn(false);
    expect((await chargeOf(subscription.id)).status).to.equal('cancelled');
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    await renewal.renewDue();
    expect(stripe.log.filter((entry) => entry.path === '/v1/payment_intents' && entry.params.customer === customer)).to.have.length(0);
    expect((await chargeOf(subscription.id)).status).to.equal('cancelled');
  });

  it('cancel by link: the GET only shows a confirm page, the POST cancels without login, audited with the buyer as actor', async () => {
    const { buyer, subscription, customer } = await buyWithAutoRenewal();
    await renewal.renewDue();
    const mail = await remind(subscription, buyer.email);
    const link = /https?:\/\/\S+\/api\/subscribe\/autorenew\/cancel\?token=[\w%.-]+/.exec(mail.text)![0];
    const path = link.slice(link.indexOf('/api/'));
    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);

    // A prefetcher's GET (twice) changes nothing.
    for (let i = 0; i < 2; i += 1) {
      const page = await api(app).get(path).expect(200);
      expect(page.text).to.contain('Cancel automatic renewal?').and.to.contain('method="post"');
    }
    expect((await chargeOf(subscription.id)).status).to.equal('scheduled');
    // A tampered token is refused: JSON for API clients, the page for a browser.
    await api(app)
      .post('/api/subscribe/autorenew/cancel')
      .type('form')
      .send({ token: `${token}x` })
      .expect(404);
    const page = await api(app)
      .post('/api/subscribe/autorenew/cancel')
      .set('Accept', 'text/html')
      .type('form')
      .send({ token: `${token}x` })
      .expect(404);
    expect(page.text).to.contain('Link not valid');
    const done = await api(app).post('/api/subscribe/autorenew/cancel').type('form').send({ token }).expect(200);
    expect(done.text).to.contain('Automatic renewal cancelled');
    expect((await chargeOf(subscription.id)).status).to.equal('cancelled');
    const audit = await knex()('audit_log')
      .where({ action: 'subscription.autorenew', target_id: String(subscription.id) })
      .first();
    expect(audit).to.include({ actor_user_id: buyer.id, actor_label: 'buyer (e-mail link)' });
    expect(audit.details).to.include({ enabled: false, via: 'email_link' });

    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    await renewal.renewDue();
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(0);
  });

  it('a declined charge is retried after a day with a card-update link, the slot held meanwhile; the retry succeeds', async () => {
    const { buyer, subscription, card, customer } = await buyWithAutoRenewal();
    await renewal.renewDue();
    stripe.cardBehaves(card.id, 'decline', 'succeed');
    await remind(subscription, buyer.email);
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['declined']);
    const charge = await chargeOf(subscription.id);
    expect(charge).to.include({ status: 'retrying', attempts: 1, failures: 1, decline_code: 'insufficient_funds' });
    expect(charge.next_attempt_at.getTime()).to.equal(subscription.ends_at.getTime() + DAY);
    const declined = await harness().mailTo(buyer.email, (mail) => mail.subject.startsWith('We could not renew'));
    // The card-update link is Stripe's setup-mode Checkout on the buyer's customer.
    const setup = [...stripe.sessions.values()].find((session) => session.mode === 'setup' && session.customer === customer)!;
    expect(declined.text).to.contain(setup.url!);

    // The slot is held: the expiry pass leaves the subscription, and the slot cannot be claimed.
    await expiry.endDue();
    const held = await knex()('subscriptions').where({ id: subscription.id }).first();
    expect(held.status).to.equal('active');
    expect(held.held_until.getTime()).to.be.greaterThan(subscription.ends_at.getTime() + 3 * DAY);
    const occupied = await knex().raw(
      `select count(*)::int as n from free_slots(array[?]::bigint[], array[4], 0, -1, ?::timestamptz, ?::timestamptz) where slot = ?`,
      [subscription.platform_account_id, clock().now(), new Date(clock().now().getTime() + DAY), subscription.slot],
    );
    expect(occupied.rows[0].n).to.equal(0);

    // The buyer saves a new card on the setup page; the retry a day later charges it.
    stripe.pay(setup.id, { card: { last4: '1881' } });
    moveClockTo(new Date(subscription.ends_at.getTime() + DAY + 60_000));
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['succeeded']);
    const charged = stripe.offSessionCharges().filter((intent) => intent.customer === customer);
    expect(charged).to.have.length(1);
    expect(stripe.paymentMethods.get(charged[0].payment_method!)!.card.last4).to.equal('1881');
    await waitFor(async () => (await knex()('subscriptions').where({ id: subscription.id }).first()).ends_at.getTime() > clock().now().getTime(), {
      what: 'the subscription extended',
    });
    const renewed = await knex()('subscriptions').where({ id: subscription.id }).first();
    expect(renewed).to.include({ status: 'active', slot: subscription.slot, held_until: null });
  });

  it('a card declined three times: retried after 1 and 3 days, then the slot goes and the subscription ends as expiry ends it, the buyer told', async () => {
    const { buyer, subscription, card, customer } = await buyWithAutoRenewal();
    await renewal.renewDue();
    stripe.cardBehaves(card.id, 'decline');
    await remind(subscription, buyer.email);
    const end = subscription.ends_at.getTime();
    for (const [at, status] of [
      [end + 60_000, 'retrying'],
      [end + DAY + 60_000, 'retrying'],
      [end + 3 * DAY + 60_000, 'failed'],
    ] as const) {
      moveClockTo(new Date(at));
      await renewal.renewDue();
      expect((await chargeOf(subscription.id)).status).to.equal(status);
    }
    const charge = await chargeOf(subscription.id);
    expect(charge).to.include({ attempts: 3, failures: 3 });
    const attempts = stripe.log.filter((entry) => entry.path === '/v1/payment_intents' && entry.params.customer === customer);
    expect(attempts.map((entry) => entry.headers['idempotency-key'])).to.deep.equal(
      await Promise.all([1, 2, 3].map(async (n) => `${await keyPrefix()}-renewal-${subscription.id}-${end}-${n}`)),
    );
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(0);
    await expiry.endDue();
    expect(await knex()('subscriptions').where({ id: subscription.id }).first()).to.include({ status: 'ended', held_until: null });
    await harness().mailTo(buyer.email, (mail) => mail.subject.endsWith('has ended') && mail.text.includes(`${RENEWAL_ATTEMPTS} times`));
    expect(
      (await outboxOf(buyer.id, 12)).map((row: { subject: string }) => row.subject).filter((subject: string) => subject.startsWith('We could not renew')),
    ).to.have.length(2);
  });

  it('strong customer authentication: the buyer is e-mailed a link, pays on-session, and the same subscription is extended', async () => {
    const { buyer, subscription, card, customer } = await buyWithAutoRenewal({ languageId: 2 });
    await renewal.renewDue();
    stripe.cardBehaves(card.id, 'authentication_required');
    await remind(subscription, buyer.email);
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['requires_action']);
    expect(await chargeOf(subscription.id)).to.include({ status: 'requires_action', decline_code: 'authentication_required' });
    const mail = await harness().mailTo(buyer.email, (message) => message.subject.includes('확인해 주세요'));
    const link = /https?:\/\/\S+\/api\/subscribe\/autorenew\/pay\?token=[\w%.-]+/.exec(mail.text)![0];
    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);
    await api(app)
      .get(link.slice(link.indexOf('/api/')))
      .expect(200);
    const started = await api(app).post('/api/subscribe/autorenew/pay').type('form').send({ token }).expect(303);
    const session = [...stripe.sessions.values()].find((candidate) => started.headers.location === candidate.url)!;
    expect(session.mode).to.equal('payment');
    stripe.pay(session.id);
    expect((await webhook(stripe.webhook(session.id, 'checkout.session.completed', signedNow()))).status).to.equal(200);
    await waitFor(async () => (await knex()('subscriptions').where({ id: subscription.id }).first()).ends_at.getTime() > clock().now().getTime(), {
      what: 'the subscription extended',
    });
    expect(await knex()('subscriptions').where({ id: subscription.id }).first()).to.include({ status: 'active', slot: subscription.slot });
    await renewal.renewDue();
    expect((await chargeOf(subscription.id)).status).to.equal('succeeded');
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(0);
  });

  it('a worker killed mid-charge (subshare renew-due, SIGKILL while Stripe answers): the next pass sends the same attempt and Stripe charges once', async () => {
    const { buyer, subscription, customer } = await buyWithAutoRenewal();
    await renewal.renewDue();
    await remind(subscription, buyer.email);
    // The CLI process reads the real clock, not the test's: its charge is made due by the real one.
    await knex()('renewal_charges')
      .where({ subscription_id: subscription.id })
      .update({ next_attempt_at: new Date(Date.now() - 1000) });
    // And its reminder sent more than 48 hours before by that clock (RENEWAL_NOTICE_HOURS).
    await knex()('email_outbox')
      .whereIn('idempotency_key', knex()('renewal_charges').select('reminder_key').where({ subscription_id: subscription.id }))
      .update({ sent_at: new Date(Date.now() - 49 * 3600_000) });
    const intents = () => stripe.log.filter((entry) => entry.path === '/v1/payment_intents' && entry.params.customer === customer);
    // Stripe makes the charge, and its answer is held back: the worker dies before it learns of it.
    stripe.delayAnswerNext(30_000);
    const env = testEnv(harness().db.url, { CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64'), ...stripe.env });
    const child = spawnCli(['renew-due'], env);
    await waitFor(() => intents().length === 1, { what: 'the charge sent to Stripe', timeoutMs: 30_000 });
    child.kill('SIGKILL');
    await exited(child);
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(1);
    expect(await chargeOf(subscription.id)).to.include({ status: 'charging', attempts: 1 });

    // The next pass (the worker's, another process's) finds the row left charging and sends the same attempt.
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['succeeded']);
    expect(intents()).to.have.length(2);
    expect(new Set(intents().map((entry) => entry.headers['idempotency-key']))).to.deep.equal(
      new Set([`${await keyPrefix()}-renewal-${subscription.id}-${subscription.ends_at.getTime()}-1`]),
    );
    expect(stripe.offSessionCharges().filter((intent) => intent.customer === customer)).to.have.length(1);
    const charge = await chargeOf(subscription.id);
    expect(charge.status).to.equal('succeeded');
    expect((await knex()('payments').where({ order_id: charge.order_id })).map((row: { status: string }) => row.status)).to.deep.equal(['paid']);
    // Two passes at once after that: nothing more.
    await Promise.all([renewal.renewDue(), renewal.renewDue()]);
    expect(intents()).to.have.length(2);
  });

  it('a PaymentIntent webhook of a renewal charge applies once, through the normal payment path', async () => {
    const { buyer, subscription, customer } = await buyWithAutoRenewal();
    await renewal.renewDue();
    await remind(subscription, buyer.email);
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    await renewal.renewDue();
    const [intent] = stripe.offSessionCharges().filter((candidate) => candidate.customer === customer);
    const delivery = stripe.paymentIntentWebhook(intent.id, 'payment_intent.succeeded', signedNow());
    expect((await webhook(delivery)).status).to.equal(200);
    expect((await webhook(delivery)).status).to.equal(200);
    const charge = await chargeOf(subscription.id);
    const events = await knex()('payment_events').where({ payment_id: charge.payment_id }).orderBy('id');
    expect(events.map((row: { outcome: string }) => row.outcome)).to.deep.equal(['paid', 'already_paid']);
  });

  it('a buyer who paid by card without the opt-in saves a card from the panel (setup-mode Checkout); renewal is then on and charges that card', async () => {
    const { buyer, subscription } = await buyByCard({ app, base, stripe, platform }, { renewAutomatically: false });
    const switchOn = () => api(app).post('/api/subscribe/autorenew').set(buyer.auth).send({ subscriptionId: subscription.id, enabled: true });
    expect((await switchOn().expect(409)).body.code).to.equal('no_saved_card');

    // Only the holder; strict body; not without Stripe.
    const other = await loginAs('user', { app });
    const saveCard = (who: TestUser, body: object, on: Express = app) => api(on).post('/api/subscribe/autorenew/card').set(who.auth).send(body);
    expect((await saveCard(other, { subscriptionId: subscription.id }).expect(404)).body.code).to.equal('subscription_not_found');
    await saveCard(buyer, { subscriptionId: 'x' }).expect(400);
    await api(app).post('/api/subscribe/autorenew/card').send({ subscriptionId: subscription.id }).expect(401);
    expect((await saveCard(buyer, { subscriptionId: subscription.id }, harness().app).expect(409)).body.code).to.equal('autorenew_unavailable');

    const { body: page } = await saveCard(buyer, { subscriptionId: subscription.id }).expect(200);
    expect(page).to.have.all.keys('url');
    const setup = [...stripe.sessions.values()].find((session) => session.url === page.url)!;
    const customer = [...stripe.customers.values()].find((candidate) => candidate.metadata.userId === String(buyer.id))!;
    expect(setup).to.include({ mode: 'setup', customer: customer.id, currency: 'eur' });
    expect(setup.success_url).to.match(new RegExp(`/user/${buyer.id}\\?cardSaved=${subscription.id}&cardSession=\\{CHECKOUT_SESSION_ID\\}$`));
    // Not finished yet: still no card, still off.
    expect((await switchOn().expect(409)).body.code).to.equal('no_saved_card');

    // The buyer saves a card on Stripe's page; asking for a page again finds it (no second page).
    stripe.pay(setup.id, { card: { last4: '9995' } });
    // Stripe's event about the finished page is acknowledged (it moves no money; the card is read from the session).
    expect((await webhook(stripe.webhook(setup.id, 'checkout.session.completed', signedNow()))).status).to.equal(200);
    const pages = stripe.sessions.size;
    expect((await saveCard(buyer, { subscriptionId: subscription.id }).expect(409)).body.code).to.equal('card_already_saved');
    expect(stripe.sessions.size).to.equal(pages);
    // Back in the panel, renewal is switched on with it.
    const { body: on } = await switchOn().expect(200);
    expect(on).to.include({ mode: 'card', enabled: true, canEnable: true, cardLast4: '9995' });
    expect((await saveCard(buyer, { subscriptionId: subscription.id }).expect(409)).body.code).to.equal('card_already_saved');
    const audit = await knex()('audit_log').where({ action: 'subscription.autorenew', target_id: String(subscription.id) });
    expect(
      audit.map((row: { actor_user_id: number; details: { enabled: boolean; via: string } }) => [row.actor_user_id, row.details.enabled, row.details.via]),
    ).to.deep.equal([[buyer.id, true, 'panel']]);

    // The period is charged off-session on the card saved there.
    await remind(subscription, buyer.email);
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    expect(outcomeOf(await renewal.renewDue(), subscription.id)).to.deep.equal(['succeeded']);
    const charged = stripe.offSessionCharges().filter((intent) => intent.customer === customer.id);
    expect(charged).to.have.length(1);
    expect(charged[0]).to.include({ amount: 499, currency: 'eur' });
    expect(stripe.paymentMethods.get(charged[0].payment_method!)!.card.last4).to.equal('9995');
  });

  it('a card saved on the save-a-card page by a buyer who did not come back: the renewal pass turns renewal on, audited as the buyer', async () => {
    const first = await buyByCard({ app, base, stripe, platform }, { renewAutomatically: false });
    const buyer = await logIn(first.buyer, app);
    const { body: page } = await api(app).post('/api/subscribe/autorenew/card').set(buyer.auth).send({ subscriptionId: first.subscription.id }).expect(200);
    const setup = [...stripe.sessions.values()].find((session) => session.url === page.url)!;
    // Unfinished, the pass changes nothing.
    await renewal.renewDue();
    const panelState = async () => {
      const panel = await api(app).get(PANEL).query({ id: buyer.id, languageId: 1 }).set(buyer.auth).expect(200);
      return panel.body.subscribers.find((entry: { subscribeId: number }) => entry.subscribeId === first.subscription.id).autoRenew;
    };
    expect(await panelState()).to.include({ enabled: false, canEnable: false });
    stripe.pay(setup.id, { card: { last4: '0005' } });
    expect((await renewal.renewDue()).cardsLearnt).to.be.at.least(1);
    expect(await panelState()).to.include({ mode: 'card', enabled: true, canEnable: true, cardLast4: '0005' });
    const audit = await knex()('audit_log').where({ action: 'subscription.autorenew', target_id: String(first.subscription.id) });
    expect(audit).to.have.length(1);
    expect(audit[0]).to.include({ actor_user_id: buyer.id, actor_label: 'buyer (card saved)' });
    expect(audit[0].details).to.include({ enabled: true, via: 'card_saved' });

    // A subscription paid with a method Stripe cannot charge (a Payssion method) has no card page.
    const payer = await loginAs('user', { app });
    const orderId = await createOrder(
      { id: payer.id, email: payer.email, name: null, photoUrl: null, role: 0, isEmailVerified: true, languageId: 1, sessionId: 'save-card' },
      platform,
    );
    await markPaidQuietly(orderId);
    await activation().activate(orderId);
    const paidByLink = await subscriptionOf(orderId);
    const refused = await api(app).post('/api/subscribe/autorenew/card').set(payer.auth).send({ subscriptionId: paidByLink.id }).expect(409);
    expect(refused.body.code).to.equal('autorenew_unavailable');
  });

  it('staff see upcoming and failed renewals with the expected revenue; buyers may not', async () => {
    const { buyer, subscription } = await buyWithAutoRenewal();
    await renewal.renewDue();
    await api(app).get('/api/admin/renewals').set(buyer.auth).expect(403);
    moveClockTo(new Date(subscription.ends_at.getTime() - 10 * DAY));
    const admin = await loginAs('admin', { app });
    const { body } = await api(app).get('/api/admin/renewals').set(admin.auth).query({ userId: buyer.id }).expect(200);
    expect(body.upcoming).to.have.length(1);
    expect(body.upcoming[0]).to.include({ userId: buyer.id, enabled: true, mode: 'card', amount: 4.99, currencyCode: 'EUR' });
    expect(body.expected).to.deep.include({ amount: 4.99, currencyCode: 'EUR' });
  });
});
