import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CreditService, LedgerService, ReferralFlow } from '@subshare/core';
import { api, logIn, loginAs, uniqueEmail, type TestUser } from '../support/agent.js';
import { buyByCard, moveClockTo, remindersDelivered, useRenewalShop } from '../support/auto-renewal.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';

useWorker();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Dashboard = {
  revenueEur: Array<{ day: string; totalEur: number }>;
  discountsGranted: Array<{ source: string; code: string | null; paidOrders: number; granted: Array<{ currencyCode: string; amount: number }> }>;
  outstandingCredit: Array<{ currencyCode: string; amount: number }>;
};

/**
 * Issue 37's "How it will be checked", as one story through the HTTP API against the local Stripe
 * server (signed events) with the shop's clock: staff create a code by the calls; a visitor signs
 * up by an inviter's link and pays (the welcome discount), another buyer pays with the code, a
 * third pays in full; the refund window passes and the grant job runs; the inviter's credit is
 * spent on an automatic renewal (the card charged the rest); the renewal is refunded (credit back
 * first) and the third buyer's payment is disputed and lost. Then the money Stripe kept (charged,
 * less refunded, less the lost dispute) is the ledger's net money and the dashboard's revenue, and
 * each buyer's credit as the API tells it is CreditService's.
 */
describe('codes and credit: the totals at the provider, the ledger, the dashboard and the panel agree', function () {
  this.timeout(120_000);
  const shop = useRenewalShop();
  const knex = () => harness().knex;
  /** Stripe signs with the time it is for the shop (whose clock the test moves). */
  const signed = () => ({ timestamp: Math.floor(harness().clock.now().getTime() / 1000) });
  const webhook = () => `${shop.base}/api/webhook/stripe`;

  /** A new buyer through POST /api/user/register with the inviter's code (as the storefront keeps `?ref=`); verified as the e-mail code would. */
  async function signUp(referralCode: string): Promise<TestUser> {
    const email = uniqueEmail('friend');
    const password = 'friend-pass-1';
    const { body } = await api(shop.app).post('/api/user/register').send({ email, password, referralCode }).expect(200);
    await knex()('users').where({ id: body.id }).update({ is_email_verified: true });
    return { id: body.id, email, password, token: body.token, auth: { Authorization: `Bearer ${body.token}` } };
  }

  /** The buyer orders (with a code, when given) and pays by card at Stripe; answers the order and its PaymentIntent once it is active. */
  async function paysByCard(buyer: TestUser, last4: string, promoCode?: string) {
    const { platform } = shop;
    const { body: order } = await api(shop.app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, currency: 'EUR', ...(promoCode ? { promoCode } : {}) })
      .expect(200);
    await api(shop.app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: order.id }).expect(200);
    const payment = await knex()('payments').where({ order_id: order.id }).orderBy('id', 'desc').first();
    const session = shop.stripe.pay(payment.provider_reference, { card: { last4 } });
    expect((await shop.stripe.deliver(webhook(), shop.stripe.webhook(session.id, 'checkout.session.completed', signed()))).status).to.equal(200);
    await waitFor(async () => (await knex()('orders').where({ id: order.id }).first()).state === 2, { what: `order ${order.id} activated` });
    return { order, paymentIntent: String(session.payment_intent) };
  }

  const dashboard = async (admin: TestUser): Promise<Dashboard> => (await api(shop.app).get('/api/admin/dashboard').set(admin.auth).expect(200)).body;
  const cents = (value: number) => Math.round(value * 100);

  it('staff’s code, a referral, credit on a renewal, a refund and a lost dispute: Stripe, the ledger, the dashboard and each buyer’s credit agree', async () => {
    let admin = await loginAs('admin', { app: shop.app });
    // The dashboard's days as they are now; the revenue added is read day by day (the clock moves past the 30 days shown).
    const revenueSeen = new Map<string, number>();
    const revenueBefore = new Map((await dashboard(admin)).revenueEur.map((entry) => [entry.day, cents(entry.totalEur)]));
    const seeRevenue = (board: Dashboard) => board.revenueEur.forEach((entry) => revenueSeen.set(entry.day, cents(entry.totalEur)));
    const welcomeBefore = (await dashboard(admin)).discountsGranted[0];

    // --- Staff create a code through the calls. ---
    const code = `LAUNCH${randomUUID().slice(0, 6).toUpperCase()}`;
    const created = (await api(shop.app).post('/api/promo/create').set(admin.auth).send({ code, percentOff: 20 }).expect(200)).body;
    expect(created).to.include({ code, percentOff: 20, redeemed: 0 });

    // --- The inviter buys with "Renew automatically"; a friend signs up by the link and pays with the welcome discount. ---
    const inviterPurchase = await buyByCard(shop, { last4: '1111' });
    let inviter = inviterPurchase.buyer;
    const { code: referralCode, link } = (await api(shop.app).get('/api/user/referral').set(inviter.auth).expect(200)).body;
    expect(link).to.match(new RegExp(`/\\?ref=${referralCode}$`));
    const friend = await signUp(referralCode);
    const friendPaid = await paysByCard(friend, '2222');
    expect(friendPaid.order).to.include({ subtotal: 4.99, discount: 0.5, discountSource: 'welcome', total: 4.49 });

    // --- Another buyer pays with the code (typed in lower case); a third pays in full. ---
    const codeBuyer = await loginAs('user', { app: shop.app });
    const codePaid = await paysByCard(codeBuyer, '3333', code.toLowerCase());
    expect(codePaid.order).to.include({ subtotal: 4.99, discount: 1, discountSource: 'code', promoCode: code, total: 3.99 });
    const disputer = await loginAs('user', { app: shop.app });
    const disputed = await paysByCard(disputer, '5555');

    // --- The third buyer's bank disputes the payment, and the shop loses: signed events, the second delivered twice. ---
    expect((await shop.stripe.deliver(webhook(), shop.stripe.disputeWebhook(disputed.paymentIntent, 'charge.dispute.created', signed()))).status).to.equal(200);
    const lost = shop.stripe.disputeWebhook(disputed.paymentIntent, 'charge.dispute.closed', { ...signed(), status: 'lost' });
    expect((await shop.stripe.deliver(webhook(), lost)).status).to.equal(200);
    expect((await shop.stripe.deliver(webhook(), lost)).status).to.equal(200);
    await waitFor(async () => (await knex()('orders').where({ id: disputed.order.id }).first()).state === 5, { what: 'the disputed order ended' });

    // --- The refund window passes; the grant job runs (twice: once counts). ---
    harness().clock.advance(25 * HOUR);
    const referrals = harness().container.get(ReferralFlow);
    await referrals.grantDue();
    await referrals.grantDue();
    const reward = await harness().mailTo(inviter.email, (mail) => mail.subject.includes('credit'));
    expect(reward.subject).to.equal('You earned €0.45 in credit'); // 10 % of €4.49, half up
    admin = await logIn(admin, shop.app);
    seeRevenue(await dashboard(admin));

    // --- The inviter's credit pays first at the automatic renewal; the card is charged the rest. ---
    const { subscription, customer } = inviterPurchase;
    await shop.renewal.renewDue();
    moveClockTo(new Date(subscription.ends_at.getTime() - 2 * DAY - HOUR));
    await shop.expiry.remindDue();
    const reminder = await harness().mailTo(inviter.email, (mail) => /renews on/.test(mail.subject));
    expect(reminder.text).to.contain('we will use €0.45 of your credit for the €4.99 and charge the rest, €4.54, to your card ending in 1111');
    await remindersDelivered();
    moveClockTo(new Date(subscription.ends_at.getTime() + 60_000));
    const run = await shop.renewal.renewDue();
    expect(run.charges.filter((charge) => charge.subscriptionId === subscription.id).map((charge) => charge.outcome)).to.deep.equal(['succeeded']);
    expect(
      shop.stripe
        .offSessionCharges()
        .filter((intent) => intent.customer === customer)
        .map((intent) => intent.amount),
    ).to.deep.equal([454]);
    const charge = await knex()('renewal_charges').where({ subscription_id: subscription.id }).orderBy('id', 'desc').first();
    const renewalOrderId = Number(charge.order_id);
    await waitFor(async () => (await knex()('orders').where({ id: renewalOrderId }).first()).state === 2, { what: 'the renewal activated' });
    const receipt = await harness().mailTo(inviter.email, (mail) => /^Receipt/.test(mail.subject));
    expect(receipt.text).to.contain('We used €0.45 of your credit and charged the rest, €4.54, to your card ending in 1111.');

    // --- Staff refund the renewal: its credit goes back first, Stripe gives back only the rest; its signed event changes nothing more. ---
    admin = await logIn(admin, shop.app);
    const quote = (await api(shop.app).get('/api/order/refundquote').set(admin.auth).query({ orderId: renewalOrderId }).expect(200)).body;
    expect(quote).to.include({ refundAsCredit: 0.45, provider: 'stripe' });
    const refundAnswer = await api(shop.app).post('/api/order/refund').set(admin.auth).send({ orderId: renewalOrderId, reason: 'asked within a day' });
    expect(refundAnswer.status, JSON.stringify(refundAnswer.body)).to.equal(200);
    const refunded = refundAnswer.body;
    expect(refunded.refund).to.include({ status: 'succeeded', credit: 0.45 });
    const renewalIntent = shop.stripe.offSessionCharges().find((intent) => intent.customer === customer)!.id;
    expect(shop.stripe.payment(renewalIntent).amountRefunded).to.equal(cents(quote.refund) - 45);
    expect((await shop.stripe.deliver(webhook(), shop.stripe.chargeRefundedWebhook(renewalIntent, signed()))).status).to.equal(200);

    // --- The totals. What Stripe kept: every charge, less what it refunded and the dispute the shop lost. ---
    let stripeKept = 0;
    for (const payment of shop.stripe.payments.values()) {
      const refundedThere = payment.refunds.filter((refund) => refund.status === 'succeeded').reduce((sum, refund) => sum + refund.amount, 0);
      stripeKept += payment.amount - refundedThere - (payment.dispute?.status === 'lost' ? payment.dispute.amount : 0);
    }
    expect(shop.stripe.payments.size).to.equal(5); // four checkouts and the renewal
    expect(stripeKept).to.equal(499 + 449 + 399 + 499 + 454 - (cents(quote.refund) - 45) - 499);

    // The ledger: each order's net (paid, less refunds, less what the bank took), less the credit it took and did not give back.
    const orderIds = [inviterPurchase.orderId, friendPaid.order.id, codePaid.order.id, disputed.order.id, renewalOrderId];
    const ledger = harness().container.get(LedgerService);
    let ledgerNet = 0;
    for (const orderId of orderIds) ledgerNet += (await ledger.standingOfOrder(orderId)).net;
    const creditRows = await knex()('credit_entries').whereIn('order_id', orderIds);
    const creditKept = creditRows.reduce(
      (sum: number, row: { kind: string; amount_minor: string }) =>
        sum + (row.kind === 'spent' ? Number(row.amount_minor) : row.kind === 'returned' || row.kind === 'released' ? -Number(row.amount_minor) : 0),
      0,
    );
    expect(ledgerNet - creditKept).to.equal(stripeKept);

    // The dashboard: the EUR revenue added over every day it showed since the start.
    const board = await dashboard(admin);
    seeRevenue(board);
    let revenueAdded = 0;
    for (const [day, value] of revenueSeen) revenueAdded += value - (revenueBefore.get(day) ?? 0);
    expect(revenueAdded).to.equal(stripeKept);

    // Discounts granted: the code's one paid order and €1.00; the welcome discount one more order and €0.50.
    expect(board.discountsGranted.find((line) => line.code === code)).to.deep.equal({
      source: 'code',
      code,
      paidOrders: 1,
      granted: [{ currencyCode: 'EUR', amount: 1 }],
    });
    const welcome = board.discountsGranted[0];
    const eur = (line: typeof welcome) => cents(line.granted.find((entry) => entry.currencyCode === 'EUR')?.amount ?? 0);
    expect([welcome.paidOrders - welcomeBefore.paidOrders, eur(welcome) - eur(welcomeBefore)]).to.deep.equal([1, 50]);
    const listed = (await api(shop.app).get('/api/promo/list').set(admin.auth).expect(200)).body.find((entry: { code: string }) => entry.code === code);
    expect(listed).to.deep.include({ redeemed: 1, paidRedemptions: 1, granted: [{ currencyCode: 'EUR', amount: 1 }] });

    // Each buyer's credit: what the API shows is CreditService's; the inviter holds the €0.45 the refund gave back.
    const credit = harness().container.get(CreditService);
    inviter = await logIn(inviter, shop.app);
    for (const buyer of [inviter, await logIn(friend, shop.app), await logIn(codeBuyer, shop.app), await logIn(disputer, shop.app)]) {
      const shown = (await api(shop.app).get('/api/user/referral').set(buyer.auth).expect(200)).body.credit;
      const balances = await credit.balances(buyer.id);
      expect(shown).to.deep.equal(
        balances.filter((balance) => balance.earned.amount > 0).map((balance) => ({ currencyCode: balance.currency, amount: balance.earned.amount / 100 })),
      );
    }
    expect((await credit.available(inviter.id, 'EUR')).amount).to.equal(45);
    expect((await api(shop.app).get('/api/user/referral').set(inviter.auth).expect(200)).body).to.deep.include({
      credit: [{ currencyCode: 'EUR', amount: 0.45 }],
      invited: 1,
      rewarded: 1,
    });
    // What the shop owes in credit includes it.
    expect(cents(board.outstandingCredit.find((entry) => entry.currencyCode === 'EUR')?.amount ?? 0)).to.be.at.least(45);
  });
});
