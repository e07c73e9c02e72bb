import { expect } from 'chai';
import { remindersDelivered } from '../support/auto-renewal.js';
import { ExpiryFlow, RenewalFlow } from '@subshare/core';
import { listen } from '@subshare/http';
import { api, loginAs } from '../support/agent.js';
import { runCli } from '../support/cli.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { harness, testEnv, useWorker } from '../support/harness.js';
import { createAccount, createPlatform } from '../support/shop.js';
import { waitFor } from '../support/wait.js';

useWorker();

describe('subshare CLI: renew-due', function () {
  this.timeout(90_000);
  const stripe = new FakeStripe();
  const stops: Array<() => Promise<void>> = [];
  after(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  it('--dry-run lists the charge due and changes nothing; without it, charges once and says so', async () => {
    stops.push((await stripe.start()).stop);
    const world = harness().appWith(stripe.env);
    const server = await listen(world.app, 0, '127.0.0.1');
    stops.push(server.close);
    const platform = await createPlatform({ slotsCount: 2 });
    await createAccount(platform.id, 2);
    const buyer = await loginAs('user', { app: world.app });
    const { body: order } = await api(world.app)
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId, currency: 'EUR' })
      .expect(200);
    await api(world.app).post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: order.id, renewAutomatically: true }).expect(200);
    const session = [...stripe.sessions.values()].find((candidate) => candidate.metadata.orderId === String(order.id))!;
    stripe.pay(session.id, { card: { last4: '5556' } });
    await stripe.deliver(`${server.url}/api/webhook/stripe`, stripe.webhook(session.id, 'checkout.session.completed'));
    await waitFor(async () => (await harness().knex('orders').where({ id: order.id }).first()).state === 2, { what: 'the activation' });
    const subscription = await harness()
      .knex('subscriptions')
      .whereIn('order_item_id', harness().knex('order_items').select('id').where({ order_id: order.id }))
      .first();
    await world.container.get(RenewalFlow).renewDue();
    harness().clock.advance(subscription.ends_at.getTime() - Date.now() - 2 * 24 * 3600_000);
    await world.container.get(ExpiryFlow).remindDue();
    await harness().mailTo(buyer.email, (mail) => mail.subject.includes('renews on'));
    // The CLI reads the real clock: the charge is made due by it.
    await harness()
      .knex('renewal_charges')
      .where({ subscription_id: subscription.id })
      .update({ next_attempt_at: new Date(Date.now() - 1000) });
    // And its reminder sent more than 48 hours before by that clock (RENEWAL_NOTICE_HOURS).
    await remindersDelivered();
    await harness()
      .knex('email_outbox')
      .whereIn('idempotency_key', harness().knex('renewal_charges').select('reminder_key').where({ subscription_id: subscription.id }))
      .update({ sent_at: new Date(Date.now() - 49 * 3600_000) });
    const env = testEnv(harness().db.url, { CREDENTIALS_KEY: harness().config.credentialsKey.toString('base64'), ...stripe.env });

    const dry = await runCli(['renew-due', '--dry-run'], env);
    expect(dry.stderr).to.equal('');
    expect(dry.code).to.equal(0);
    expect(dry.stdout).to.match(/^1 renewal charge\(s\) due\.\n/);
    expect(dry.stdout).to.contain(`subscription ${subscription.id}: 4.99 EUR, attempt 1`).and.to.contain('•••• 5556');
    expect(stripe.log.filter((entry) => entry.path === '/v1/payment_intents')).to.have.length(0);
    expect((await harness().knex('renewal_charges').where({ subscription_id: subscription.id }).first()).status).to.equal('scheduled');

    const run = await runCli(['renew-due'], env);
    expect(run.stderr).to.equal('');
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain('1 charge(s) attempted, 1 succeeded').and.to.contain(`subscription ${subscription.id}: succeeded`);
    expect(stripe.offSessionCharges()).to.have.length(1);
    expect((await harness().knex('renewal_charges').where({ subscription_id: subscription.id }).first()).status).to.equal('succeeded');
    const again = await runCli(['renew-due'], env);
    expect(again.stdout).to.contain('0 charge(s) attempted');
    expect(stripe.offSessionCharges()).to.have.length(1);
  });
});
