import { expect } from 'chai';
import { createKnex, type Knex } from '@subshare/core';
import { installationIdReader } from '../../packages/core/src/modules/payments/installation.js';
import { StripeProvider } from '../../packages/core/src/modules/payments/providers/stripe.js';
import { startTestDatabase, type TestDatabase } from '../support/database.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { harness } from '../support/harness.js';
import { checkoutRequest } from './adapter-requests.js';

/**
 * Stripe idempotency keys are unique across installations that share one Stripe account (issue
 * 25): two shops (here: this file's database and a second copy of the same migrated template, as
 * staging made from production would be) number their payments alike, and used to send the same
 * key for the same reference, so Stripe replayed one shop's session to the other.
 */
describe('installation id: Stripe idempotency keys of two shops on one Stripe account', function () {
  this.timeout(30_000);
  const stripe = new FakeStripe();
  let other: TestDatabase;
  let otherKnex: Knex;
  let stop: () => Promise<void>;

  before(async () => {
    stop = (await stripe.start()).stop;
    other = await startTestDatabase();
    otherKnex = createKnex(other.url);
  });
  after(async () => {
    await otherKnex.destroy();
    await other.stop();
    await stop();
  });

  const providerOf = (knex: Knex) =>
    new StripeProvider({
      secretKey: stripe.secretKey,
      webhookSecret: stripe.webhookSecret,
      apiBase: stripe.baseUrl,
      installationId: installationIdReader(knex),
    });

  it('is made once per database and read alike by every process of one shop', async () => {
    const readers = [installationIdReader(harness().knex), installationIdReader(harness().knex), installationIdReader(harness().knex)];
    const ids = await Promise.all(readers.map((read) => read()));
    expect(new Set(ids).size).to.equal(1);
    expect(ids[0]).to.match(/^[0-9a-f]{32}$/);
    expect(await harness().knex('installation').where({ key: 'installation_id' }).pluck('value')).to.deep.equal([ids[0]]);
    // A process started later reads the stored one.
    expect(await installationIdReader(harness().knex)()).to.equal(ids[0]);
  });

  it('differs between two shops, so the same payment reference opens a session in each', async () => {
    const [ours, theirs] = await Promise.all([installationIdReader(harness().knex)(), installationIdReader(otherKnex)()]);
    expect(ours).to.not.equal(theirs);

    const request = checkoutRequest();
    const here = await providerOf(harness().knex).createCheckout(request);
    const there = await providerOf(otherKnex).createCheckout(request);
    // Without the prefix both sent `subshare-checkout-<reference>` and Stripe answered the second with the first's session.
    expect(there.providerReference).to.not.equal(here.providerReference);
    const keys = stripe.log.filter((entry) => entry.path === '/v1/checkout/sessions').map((entry) => entry.headers['idempotency-key']);
    expect(keys).to.deep.equal([`subshare-${ours}-checkout-${request.reference}`, `subshare-${theirs}-checkout-${request.reference}`]);
    // A retry by one shop still finds its own session (same key).
    expect((await providerOf(harness().knex).createCheckout(request)).providerReference).to.equal(here.providerReference);
  });
});
