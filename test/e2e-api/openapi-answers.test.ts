/**
 * Every call's answer holds to the schema `/api/openapi.json` declares for it: a real call is
 * made for each operation (with the role and data it needs) and its body is checked with ajv
 * against the served document, so the document itself is checked, not only the yup schemas it
 * came from. Answers are declared closed, so a field sent but not declared fails too.
 *
 * Every call must declare its answer and have a sample here: the test fails for a call without
 * a declared answer, and for one with a declared answer but no sample.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import type { Express } from 'express';
import type { Container } from 'inversify';
import type { Response } from 'supertest';
import { signRenewalLink, AccountHealthFlow, CreditService, MailboxReaderService } from '@subshare/core';
import { api, createUser, loginAs, uniqueEmail, type TestUser } from '../support/agent.js';
import { startDovecot, type TestDovecot } from '../support/dovecot.js';
import { FakeCoinPal } from '../support/fake-coinpal.js';
import { FakeGoogle } from '../support/fake-google.js';
import { FakeKakao } from '../support/fake-kakao.js';
import { FakeNaver } from '../support/fake-naver.js';
import { FakePayssion } from '../support/fake-payssion.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { harness, useWorker } from '../support/harness.js';
import { waitFor } from '../support/wait.js';
import { mailboxAccount, netflixLink, type MailboxAccount, netflixMail, openAiMail, randomCode, subscribe } from '../support/mailboxes.js';
import { activation, buyer, createAccount, createOrder, createPlatform, markPaidQuietly, platformJobsSettled, type TestPlatform } from '../support/shop.js';

type Schema = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

/** ajv for JSON Schema 2020-12 (OpenAPI 3.1's), strict: an unknown keyword in the document is an error. */
function validator(document: Document): (schema: Schema) => ValidateFunction {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
  ajv.addFormat('date-time', (text: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(text) && !Number.isNaN(Date.parse(text)));
  const rebase = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rebase);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', 'https://subshare.test/openapi.json#/$defs/') : rebase(inner),
      ]),
    );
  };
  // The document's components, reachable from every answer schema, and from each other (a RefundQuote's refunds are Refunds).
  ajv.addSchema({ $id: 'https://subshare.test/openapi.json', $defs: rebase(document.components.schemas) });
  return (schema) => ajv.compile(rebase(schema) as Schema);
}

describe('API answers match their declared schemas (ajv against /api/openapi.json)', function () {
  this.timeout(120_000);
  // The code calls read their codes from the e-mails the worker delivers.
  useWorker();
  const google = new FakeGoogle();
  const naver = new FakeNaver();
  const kakao = new FakeKakao();
  const stripe = new FakeStripe();
  const coinpal = new FakeCoinPal();
  const payssion = new FakePayssion();
  const stops: Array<() => Promise<void>> = [];
  let social: { app: Express; publicUrl: string };
  /** A shop with the three providers configured (their local stand-ins), for the signed notifications. */
  let paying: Express;
  /** A shop that reads mailboxes on a test Dovecot, for the panel's verification fetch. */
  let dovecot: TestDovecot;
  let reading: { app: Express; container: Container };
  let document: Document;
  let compile: (schema: Schema) => ValidateFunction;

  before(async () => {
    for (const fake of [google, naver, kakao, stripe, coinpal, payssion]) stops.push((await fake.start()).stop);
    const world = harness().appWith({
      ...google.env,
      ...naver.env,
      ...kakao.env,
    });
    social = { app: world.app, publicUrl: world.config.publicUrl };
    paying = harness().appWith({
      ...stripe.env,
      ...coinpal.env,
      ...payssion.env,
    }).app;
    dovecot = await startDovecot();
    reading = harness().appWith({ MAILBOX_IMAP_URL: dovecot.url, MAILBOX_IMAP_IDLE: 'false' });
    document = (await api().get('/api/openapi.json').expect(200)).body;
    compile = validator(document);
  });
  after(async () => {
    await reading?.container.get(MailboxReaderService).close();
    await dovecot?.destroy();
    for (const stop of stops) await stop();
  });

  const providers = async () => (await api(social.app).get('/api/user/socialproviders').expect(200)).body;
  const stateOf = (authorizeUrl: string) => new URL(authorizeUrl).searchParams.get('state')!;
  const nowSeconds = () => Math.floor(harness().clock.now().getTime() / 1000);
  const firstPlatformId = async () => (await api().get('/api/main/home').expect(200)).body.platforms[0].id as number;
  /** A verified buyer's new order (platform 1, its first type and duration) in `app`, with the buyer's token. */
  const orderOf = async (currency: 'EUR' | 'KRW' = 'EUR', app?: Express) => {
    const buyer = await loginAs('user', app ? { app } : {});
    const order = await api(app).post('/api/order/insert').set(buyer.auth).send({ platformId: 1, typeId: 1, durationId: 1, currency }).expect(200);
    return { id: order.body.id as number, auth: buyer.auth };
  };
  /** The provider's reference of the payment a checkout opened (what its notification names). */
  const checkoutIn = async (app: Express, path: string) => {
    const order = await orderOf('EUR', app);
    await api(app).post(`/api/payment/${path}`).set(order.auth).send({ orderId: order.id }).expect(200);
    return (await harness().knex('payments').where({ order_id: order.id }).first()).provider_reference as string;
  };

  /** The demo provider's checkout page posting the signed "paid" for the order, as the buyer's browser does. */
  const payWithDemo = async (order: { id: number; auth: Record<string, string> }) => {
    const { url } = (await api().post('/api/payment/createcheckoutsession').set(order.auth).send({ orderId: order.id }).expect(200)).body;
    const token = decodeURIComponent(new URL(url).pathname.split('/').pop()!);
    return api().post('/api/webhook/demo').type('form').send({ token, outcome: 'paid' });
  };
  /** A paid order waiting for activation, so the staff lists and the dashboard have one to answer. */
  const paidOrder = async () => markPaidQuietly(await createOrder(await buyer(), await createPlatform()));
  const staffAuth = async () => (await loginAs('moderator')).auth;
  const adminAuth = async () => (await loginAs('admin')).auth;
  /** A list sample must answer items, or the schema of its items would go unchecked. */
  const withItems = (res: Response) => {
    if (res.status === 200) expect(res.body, 'the listed items').to.be.an('array').that.is.not.empty;
    return res;
  };

  /** A buyer holding a slot on a fresh account of this platform type, whose mailbox is on the test Dovecot. */
  const holder = async (category: number): Promise<{ user: TestUser; subscriptionId: number; account: MailboxAccount; platform: TestPlatform }> => {
    const account = await mailboxAccount(harness().container, dovecot, category);
    const user = await loginAs('user');
    return { user, account, platform: account.platform, subscriptionId: await subscribe(harness().container, user, account.platform) };
  };
  /** A staff e-mail written to a new user: its outbox id. */
  const sentEmail = async () =>
    (
      await api()
        .post('/api/email/sendemail')
        .set((await loginAs('moderator')).auth)
        .send({ userId: (await createUser()).id, emailType: 0 })
        .expect(200)
    ).body.id as number;

  /** The catalog editor: a platform created through it, read back as the editor edits it. */
  const editedPlatform = async () => {
    const auth = await adminAuth();
    const name = { en: `Sample ${Date.now()}`, ko: '샘플' };
    const body = {
      name,
      description: name,
      howItWorks: [name],
      faq: [{ question: name, answer: name }],
      colorOne: '#112233',
      colorTwo: '#445566',
      logoBase: '/media/platforms/netflix.svg',
      logoCarousel: '/media/platforms/netflix.svg',
      category: 0,
      slotsCount: 4,
      needsInvitation: false,
      isEnabled: true,
      durations: [{ key: 'd', name, months: 1, isEnabled: true }],
      types: [{ key: 't', name, isEnabled: true }],
      prices: [{ durationKey: 'd', typeKey: 't', eur: { price: 900, salePrice: 499 }, krw: { price: 9000, salePrice: 6900 } }],
    };
    const { updatedAt: _updatedAt, ...platform } = (await api().post('/api/catalog/createplatform').set(auth).send(body).expect(200)).body;
    return { auth, platform };
  };
  const asEditorInput = (platform: Record<string, unknown> & { durations: Array<Record<string, unknown>>; types: Array<Record<string, unknown>> }) => ({
    ...platform,
    durations: platform.durations.map(({ hasOrders: _hasOrders, ...d }) => d),
    types: platform.types.map(({ hasOrders: _hasOrders, ...t }) => t),
  });

  /** A broken account whose one buyer moved to a spare account of the platform (issue 29). */
  const brokenAccountWithMovedBuyer = async () => {
    const platform = await createPlatform();
    const account = await createAccount(platform.id, 2);
    await platformJobsSettled(platform.id);
    const orderId = await createOrder(await buyer(), platform);
    await markPaidQuietly(orderId);
    await activation().activate(orderId);
    await createAccount(platform.id, 2);
    await platformJobsSettled(platform.id);
    const flow = harness().container.get(AccountHealthFlow);
    await flow.setHealth({ label: 'test' }, { accountId: account.id, state: 'broken', reason: 'password changed' });
    // The worker's move job or this call: whichever comes first moves the buyer, the other finds nothing to do.
    await flow.moveBuyers(account.id);
    await waitFor(async () => (await flow.list(platform.id)).find((entry) => entry.id === account.id)?.buyers[0]?.status === 'moved', { what: 'the move' });
    return { platformId: platform.id, accountId: account.id };
  };

  /** A buyer's active subscription and a signed link token of it (automatic renewal's calls). */
  const heldByBuyer = async (purpose: 'cancel' | 'pay' = 'cancel') => {
    const user = await loginAs('user');
    const platform = await createPlatform();
    await createAccount(platform.id, 2);
    await platformJobsSettled(platform.id);
    const order = await api()
      .post('/api/order/insert')
      .set(user.auth)
      .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId })
      .expect(200);
    await markPaidQuietly(order.body.id);
    const [held] = (await activation().activate(order.body.id)).subscriptions;
    const token = await signRenewalLink(
      { purpose, subscriptionId: held.subscriptionId, periodEnd: held.endsAt.getTime(), expiresAt: held.endsAt.getTime() + 86_400_000 },
      harness().config.tokenSecret,
    );
    return { auth: user.auth, subscriptionId: held.subscriptionId, token, orderId: order.body.id as number };
  };

  /** One real call per operation, `METHOD /path` as the document spells it. */
  const SAMPLES: Record<string, () => Promise<Response>> = {
    'GET /api/main/home': () => api().get('/api/main/home').query({ languageId: 2, currency: 'KRW' }),
    'GET /api/platform/getplatform': async () =>
      api()
        .get('/api/platform/getplatform')
        .query({ id: await firstPlatformId() }),
    'GET /api/main/getcountry': () => api().get('/api/main/getcountry').set('Accept-Language', 'ko-KR'),
    'GET /api/main/business': () => api().get('/api/main/business'),
    'GET /api/platform/getplatforms': async () =>
      api()
        .get('/api/platform/getplatforms')
        .set((await loginAs('moderator')).auth),
    'GET /api/catalog/platforms': async () =>
      withItems(
        await api()
          .get('/api/catalog/platforms')
          .set(await adminAuth()),
      ),
    'GET /api/catalog/platform': async () =>
      api()
        .get('/api/catalog/platform')
        .query({ id: await firstPlatformId() })
        .set(await adminAuth()),
    'POST /api/catalog/createplatform': async () => {
      const { auth, platform } = await editedPlatform();
      const body: Record<string, unknown> = asEditorInput(platform);
      delete body.id;
      delete body.version;
      return api().post('/api/catalog/createplatform').set(auth).send(body);
    },
    'POST /api/catalog/updateplatform': async () => {
      const { auth, platform } = await editedPlatform();
      return api().post('/api/catalog/updateplatform').set(auth).send(asEditorInput(platform));
    },
    'POST /api/catalog/setenabled': async () => {
      const { auth, platform } = await editedPlatform();
      return api().post('/api/catalog/setenabled').set(auth).send({ id: platform.id, version: platform.version, isEnabled: false });
    },
    'POST /api/catalog/uploadlogo': async () =>
      api()
        .post('/api/catalog/uploadlogo')
        .set(await adminAuth())
        .set('Content-Type', 'image/svg+xml')
        .send(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>')),
    'GET /api/main/loginpagedata': () => api().get('/api/main/loginpagedata'),
    'GET /api/user/checkemail': async () =>
      api()
        .get('/api/user/checkemail')
        .query({ email: (await createUser()).email }),
    'POST /api/user/register': () =>
      api()
        .post('/api/user/register')
        .send({ email: uniqueEmail('answer'), password: 'answer-pass-1', languageId: 2 }),
    'POST /api/user/authenticate': async () => {
      const user = await createUser();
      return api().post('/api/user/authenticate').send({ email: user.email, password: user.password, rememberMe: true });
    },
    'POST /api/user/sendverificationcode': async () =>
      api()
        .post('/api/user/sendverificationcode')
        .set((await loginAs('user', { verified: false })).auth)
        .send({}),
    'POST /api/user/sendverificationcodecallback': async () => {
      const user = await loginAs('user', { verified: false });
      await api().post('/api/user/sendverificationcode').set(user.auth).send({}).expect(200);
      const code = codeIn((await harness().mailTo(user.email)).text);
      return api().post('/api/user/sendverificationcodecallback').send({ email: user.email, code });
    },
    'POST /api/user/googleauthenticate': async () => {
      const idToken = await google.issueIdToken({ iat: nowSeconds(), nbf: nowSeconds(), exp: nowSeconds() + 3600, email: uniqueEmail('google') });
      return api(social.app).post('/api/user/googleauthenticate').send({ idToken });
    },
    'POST /api/user/navercallback': async () => {
      const state = stateOf((await providers()).naver.authorizeUrl);
      return api(social.app)
        .post('/api/user/navercallback')
        .send({ code: naver.issueCode({ email: uniqueEmail('naver'), name: '네이버' }, state), state });
    },
    'POST /api/user/kakaocallback': async () => {
      const state = stateOf((await providers()).kakao.authorizeUrl);
      const code = kakao.issueCode({ email: uniqueEmail('kakao'), nickname: '카카오' }, `${social.publicUrl}/kakao/callback`);
      return api(social.app).post('/api/user/kakaocallback').send({ code, state });
    },
    'GET /api/user/socialproviders': () => api(social.app).get('/api/user/socialproviders'),
    'POST /api/user/logout': async () =>
      api()
        .post('/api/user/logout')
        .set((await loginAs('user')).auth),
    'POST /api/user/changepassword': async () => {
      const user = await loginAs('user');
      return api().post('/api/user/changepassword').set(user.auth).send({ currentPassword: user.password, newPassword: 'changed-pass-1' });
    },
    'POST /api/user/forgotpassword': async () =>
      api()
        .post('/api/user/forgotpassword')
        .send({ email: (await createUser()).email }),
    'POST /api/user/resetpassword': async () => {
      const user = await createUser();
      await api().post('/api/user/forgotpassword').send({ email: user.email }).expect(200);
      const code = codeIn((await harness().mailTo(user.email)).text);
      return api().post('/api/user/resetpassword').send({ email: user.email, code, password: 'reset-pass-12' });
    },
    'GET /api/order/getbystate': async () => {
      await paidOrder();
      return withItems(
        await api()
          .get('/api/order/getbystate')
          .query({ state: 6, limit: 5 })
          .set(await staffAuth()),
      );
    },
    'GET /api/order/getorders': async () => {
      await paidOrder();
      return withItems(
        await api()
          .get('/api/order/getorders')
          .query({ page: 1, limit: 5 })
          .set(await staffAuth()),
      );
    },
    'GET /api/order/getorderspages': async () =>
      api()
        .get('/api/order/getorderspages')
        .query({ state: 6, limit: 5 })
        .set(await staffAuth()),
    'GET /api/user/getusers': async () =>
      withItems(
        await api()
          .get('/api/user/getusers')
          .query({ limit: 5 })
          .set(await staffAuth()),
      ),
    'GET /api/user/getusersbyemail': async () => {
      const { email } = await createUser();
      return withItems(
        await api()
          .get('/api/user/getusersbyemail')
          .query({ email })
          .set(await staffAuth()),
      );
    },
    'GET /api/user/getuserspages': async () =>
      api()
        .get('/api/user/getuserspages')
        .query({ limit: 5 })
        .set(await staffAuth()),
    'GET /api/order/export.csv': async () => {
      await paidOrder();
      return api()
        .get('/api/order/export.csv')
        .query({ state: 6 })
        .set(await staffAuth());
    },
    'GET /api/admin/dashboard': async () => {
      await paidOrder();
      return api()
        .get('/api/admin/dashboard')
        .set(await staffAuth());
    },
    'GET /api/audit/log': async () => {
      // An export is audited: the log has an entry with a target and details.
      const auth = await adminAuth();
      await api().get('/api/order/export.csv').set(auth).expect(200);
      return withItems(await api().get('/api/audit/log').query({ action: 'orders.export', limit: 5 }).set(auth));
    },
    'GET /api/audit/logpages': async () =>
      api()
        .get('/api/audit/logpages')
        .query({ action: 'orders.export' })
        .set(await adminAuth()),
    'POST /api/order/insert': async () =>
      api()
        .post('/api/order/insert')
        .set((await loginAs('user')).auth)
        .send({ platformId: 1, typeId: 1, durationId: 1, quantity: 1, currency: 'KRW' }),
    'POST /api/order/applypromo': async () => {
      const code = `SAMPLE-${Date.now().toString(36)}`;
      await api()
        .post('/api/promo/create')
        .set(await adminAuth())
        .send({ code, percentOff: 10 })
        .expect(200);
      const user = await loginAs('user');
      const order = await api().post('/api/order/insert').set(user.auth).send({ platformId: 1, typeId: 1, durationId: 1, currency: 'EUR' }).expect(200);
      return api().post('/api/order/applypromo').set(user.auth).send({ orderId: order.body.id, code });
    },
    'POST /api/promo/create': async () =>
      api()
        .post('/api/promo/create')
        .set(await adminAuth())
        .send({ code: `NEW-${Date.now().toString(36)}`, amounts: { EUR: 1, KRW: 1000 }, totalLimit: 5, platformIds: [1] }),
    'POST /api/promo/update': async () => {
      const auth = await adminAuth();
      const made = await api()
        .post('/api/promo/create')
        .set(auth)
        .send({ code: `UPD-${Date.now().toString(36)}`, percentOff: 5 })
        .expect(200);
      return api().post('/api/promo/update').set(auth).send({ id: made.body.id, active: false, endsAt: '2030-01-01T00:00:00Z' });
    },
    'GET /api/promo/list': async () => {
      const auth = await adminAuth();
      await api()
        .post('/api/promo/create')
        .set(auth)
        .send({ code: `LIST-${Date.now().toString(36)}`, percentOff: 5 })
        .expect(200);
      return withItems(await api().get('/api/promo/list').set(auth));
    },
    'GET /api/order/getorder': async () => {
      const order = await orderOf();
      return api().get('/api/order/getorder').set(order.auth).query({ id: order.id });
    },
    'POST /api/payment/process': async () => {
      const order = await orderOf();
      await api().post('/api/payment/createcheckoutsession').set(order.auth).send({ orderId: order.id }).expect(200);
      return api().post('/api/payment/process').set(order.auth).send({ orderId: order.id });
    },
    'POST /api/payment/createcheckoutsession': async () => {
      const order = await orderOf();
      return api().post('/api/payment/createcheckoutsession').set(order.auth).send({ orderId: order.id });
    },
    'POST /api/payment/createcheckoutsessioncoinpal': async () => {
      const order = await orderOf();
      return api().post('/api/payment/createcheckoutsessioncoinpal').set(order.auth).send({ orderId: order.id });
    },
    'POST /api/payment/createcheckoutsessionpayssion': async () => {
      const order = await orderOf('KRW');
      return api().post('/api/payment/createcheckoutsessionpayssion').set(order.auth).send({ orderId: order.id, pmId: 3 });
    },
    'POST /api/payment/checksessionpayssion': async () => {
      const order = await orderOf('KRW');
      await api().post('/api/payment/createcheckoutsessionpayssion').set(order.auth).send({ orderId: order.id, pmId: 5 }).expect(200);
      return api()
        .post('/api/payment/checksessionpayssion')
        .set(order.auth)
        .send({ orderId: String(order.id) });
    },
    'POST /api/webhook/stripe': async () => {
      const delivery = stripe.webhook(await checkoutIn(paying, 'createcheckoutsession'), 'checkout.session.completed', { timestamp: nowSeconds() });
      return api(paying).post('/api/webhook/stripe').set(delivery.headers).send(delivery.body);
    },
    'POST /api/webhook/coinpal': async () => {
      const notification = coinpal.notification(await checkoutIn(paying, 'createcheckoutsessioncoinpal'));
      return api(paying).post('/api/webhook/coinpal').set(notification.headers).send(notification.body);
    },
    'POST /api/webhook/payssion': async () => {
      const order = await orderOf('KRW', paying);
      await api(paying).post('/api/payment/createcheckoutsessionpayssion').set(order.auth).send({ orderId: order.id, pmId: 5 }).expect(200);
      const reference = (await harness().knex('payments').where({ order_id: order.id }).first()).provider_reference as string;
      const notification = payssion.notification(reference);
      return api(paying).post('/api/webhook/payssion').set(notification.headers).send(notification.body);
    },
    'POST /api/webhook/demo': async () => payWithDemo(await orderOf()),
    'GET /api/order/refundquote': async () => {
      const order = await orderOf('KRW');
      expect((await payWithDemo(order)).status, 'paid with the demo provider').to.equal(303);
      const res = await api()
        .get('/api/order/refundquote')
        .set(await adminAuth())
        .query({ orderId: order.id });
      expect(res.body.refundable, 'a refund can be made').to.equal(true);
      return res;
    },
    'POST /api/order/refund': async () => {
      const order = await orderOf();
      expect((await payWithDemo(order)).status, 'paid with the demo provider').to.equal(303);
      return api()
        .post('/api/order/refund')
        .set(await adminAuth())
        .send({ orderId: order.id, reason: 'the buyer asked within a day' });
    },
    'GET /api/user/referral': async () => {
      const inviter = await loginAs('user');
      // Credit in both currencies, as a referral reward writes it (flows/referral.flow.ts), so each entry of `credit` is checked.
      await harness().knex.transaction(async (trx) => {
        const credit = harness().container.get(CreditService);
        await credit.earn(inviter.id, { amount: 45, currency: 'EUR' }, { key: `sample:eur:${inviter.id}` }, trx);
        await credit.earn(inviter.id, { amount: 1350, currency: 'KRW' }, { key: `sample:krw:${inviter.id}` }, trx);
      });
      const res = await api().get('/api/user/referral').set(inviter.auth);
      expect(res.body.credit, 'credit per currency').to.have.length(2);
      return res;
    },
    'GET /api/user/getuserpanel': async () => {
      const { user, platform } = await holder(0);
      // A paid order not activated yet: an item of subscribersNotCompleted.
      const waiting = await api()
        .post('/api/order/insert')
        .set(user.auth)
        .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId })
        .expect(200);
      await markPaidQuietly(waiting.body.id);
      const res = await api().get('/api/user/getuserpanel').set(user.auth).query({ id: user.id, languageId: 2 });
      expect(res.body.subscribers, 'active subscriptions').to.have.length(1);
      expect(res.body.subscribersNotCompleted, 'waiting items').to.have.length(1);
      return res;
    },
    'POST /api/order/setinvatiotaionemail': async () => {
      const platform = await createPlatform({ needsInvitation: true });
      const user = await loginAs('user');
      const order = await api()
        .post('/api/order/insert')
        .set(user.auth)
        .send({ platformId: platform.id, typeId: platform.typeId, durationId: platform.durationId })
        .expect(200);
      return api()
        .post('/api/order/setinvatiotaionemail')
        .set(user.auth)
        .send({ email: uniqueEmail('family'), orderId: order.body.id });
    },
    'POST /api/webhook/activatesubscribe': async () => {
      const platform = await createPlatform();
      await createAccount(platform.id, 2);
      // The new account's job activates waiting orders: let it finish before this order is paid.
      await platformJobsSettled(platform.id);
      const orderId = await createOrder(await buyer(), platform);
      await markPaidQuietly(orderId);
      return api()
        .post('/api/webhook/activatesubscribe')
        .set((await loginAs('moderator')).auth)
        .send({ orderId });
    },
    'POST /api/webhook/replacesubscribe': async () => {
      const platform = await createPlatform();
      await createAccount(platform.id, 2);
      await platformJobsSettled(platform.id);
      const orderId = await createOrder(await buyer(), platform);
      await markPaidQuietly(orderId);
      const [held] = (await activation().activate(orderId)).subscriptions;
      await createAccount(platform.id, 2);
      return api()
        .post('/api/webhook/replacesubscribe')
        .set((await loginAs('moderator')).auth)
        .send({ subscribeId: held.subscriptionId, orderId });
    },
    'GET /api/subscribe/accounthealth': async () => {
      const { platformId } = await brokenAccountWithMovedBuyer();
      const res = await api()
        .get('/api/subscribe/accounthealth')
        .set((await loginAs('moderator')).auth)
        .query({ platformId });
      expect(res.body[0].buyers, 'the moved buyer').to.have.length(1);
      return res;
    },
    'POST /api/subscribe/setaccounthealth': async () => {
      const platform = await createPlatform();
      const account = await createAccount(platform.id, 2);
      return api()
        .post('/api/subscribe/setaccounthealth')
        .set((await loginAs('moderator')).auth)
        .send({ accountId: account.id, state: 'attention', reason: 'checking' });
    },
    'POST /api/subscribe/extendlosttime': async () => {
      const { accountId } = await brokenAccountWithMovedBuyer();
      return api()
        .post('/api/subscribe/extendlosttime')
        .set((await loginAs('moderator')).auth)
        .send({ accountId });
    },
    'POST /api/subscribe/reportproblem': async () => {
      const { auth, subscriptionId } = await heldByBuyer();
      return api().post('/api/subscribe/reportproblem').set(auth).send({ subscriptionId, kind: 'cantLogIn', note: 'It asks for a code' });
    },
    'POST /api/subscribe/confirmreport': async () => {
      const { auth, subscriptionId } = await heldByBuyer();
      const report = await api().post('/api/subscribe/reportproblem').set(auth).send({ subscriptionId, kind: 'wrongPassword' }).expect(200);
      return api()
        .post('/api/subscribe/confirmreport')
        .set((await loginAs('moderator')).auth)
        .send({ reportId: report.body.reportId });
    },
    'POST /api/subscribe/autorenew': async () => {
      const { auth, subscriptionId } = await heldByBuyer();
      return api().post('/api/subscribe/autorenew').set(auth).send({ subscriptionId, enabled: false });
    },
    'POST /api/subscribe/autorenew/card': async () => {
      const { auth, subscriptionId, orderId } = await heldByBuyer();
      // Paid by card (the helper's order is paid with method 2): a card can be saved for it.
      await harness().knex('orders').where({ id: orderId }).update({ payment_method: 1 });
      return api(paying).post('/api/subscribe/autorenew/card').set(auth).send({ subscriptionId });
    },
    'POST /api/subscribe/autorenew/card-saved': async () => {
      const { auth, subscriptionId, orderId } = await heldByBuyer();
      await harness().knex('orders').where({ id: orderId }).update({ payment_method: 1 });
      // The buyer opens Stripe's card page, finishes it there, and comes back with its session.
      const { body } = await api(paying).post('/api/subscribe/autorenew/card').set(auth).send({ subscriptionId }).expect(200);
      const page = [...stripe.sessions.values()].find((session) => session.url === body.url)!;
      stripe.pay(page.id, { card: { last4: '4242' } });
      return api(paying).post('/api/subscribe/autorenew/card-saved').set(auth).send({ subscriptionId, sessionId: page.id });
    },
    'GET /api/subscribe/autorenew/cancel': async () =>
      api()
        .get('/api/subscribe/autorenew/cancel')
        .query({ token: (await heldByBuyer()).token }),
    'POST /api/subscribe/autorenew/cancel': async () =>
      api()
        .post('/api/subscribe/autorenew/cancel')
        .type('form')
        .send({ token: (await heldByBuyer()).token }),
    'GET /api/subscribe/autorenew/pay': async () =>
      api()
        .get('/api/subscribe/autorenew/pay')
        .query({ token: (await heldByBuyer('pay')).token }),
    'POST /api/subscribe/autorenew/pay': async () =>
      api()
        .post('/api/subscribe/autorenew/pay')
        .type('form')
        .send({ token: (await heldByBuyer('pay')).token }),
    'GET /api/payment/autorenew': () => api().get('/api/payment/autorenew'),
    'GET /api/admin/renewals': async () =>
      api()
        .get('/api/admin/renewals')
        .set(await staffAuth()),
    'POST /api/subscribe/insert': async () =>
      api()
        .post('/api/subscribe/insert')
        .set((await loginAs('admin')).auth)
        .send({
          email: uniqueEmail('account'),
          password: 'account-pw-1',
          platformId: (await createPlatform()).id,
          slotsCount: 3,
          femail: uniqueEmail('forward'),
        }),
    'GET /api/subscribe/createbemail': async () =>
      api()
        .get('/api/subscribe/createbemail')
        .set((await loginAs('admin')).auth)
        .query({ plaformId: (await createPlatform()).id }),
    'GET /api/subscribe/getbemails': async () => {
      const platformId = (await createPlatform()).id;
      await api()
        .get('/api/subscribe/createbemail')
        .set((await loginAs('admin')).auth)
        .query({ platformId })
        .expect(200);
      const res = await api()
        .get('/api/subscribe/getbemails')
        .set((await loginAs('moderator')).auth)
        .query({ plaformId: platformId });
      expect(res.body, 'the mailboxes').to.be.an('array').that.is.not.empty;
      return res;
    },
    'POST /api/email/sendemail': async () =>
      api()
        .post('/api/email/sendemail')
        .set((await loginAs('moderator')).auth)
        .send({ userId: (await createUser()).id, emailType: 'welcome' }),
    'GET /api/email/outbox': async () => {
      await sentEmail();
      const res = await api()
        .get('/api/email/outbox')
        .set((await loginAs('moderator')).auth)
        .query({ limit: 5 });
      expect(res.body.items, 'the listed e-mails').to.be.an('array').that.is.not.empty;
      return res;
    },
    'POST /api/email/outbox/retry': async () => {
      const id = await sentEmail();
      await harness().knex('email_outbox').where({ id }).update({ status: 'failed' });
      return api()
        .post('/api/email/outbox/retry')
        .set((await loginAs('moderator')).auth)
        .send({ id });
    },
    'GET /api/staff/list': async () =>
      withItems(
        await api()
          .get('/api/staff/list')
          .set(await adminAuth()),
      ),
    'POST /api/staff/setrole': async () =>
      api()
        .post('/api/staff/setrole')
        .set(await adminAuth())
        .send({ email: (await createUser()).email, role: 1 }),
    'GET /api/email/outbox/{id}': async () =>
      api()
        .get(`/api/email/outbox/${await sentEmail()}`)
        .set((await loginAs('moderator')).auth),
    'GET /api/email/getnvlink': async () => {
      const { user, subscriptionId, account } = await holder(0);
      await dovecot.deliver(account.email, netflixMail(account.email, netflixLink(), harness().clock.now()));
      const res = await api(reading.app).get('/api/email/getnvlink').set(user.auth).query({ subscriptionId });
      expect(res.body.link, 'the link found').to.be.a('string');
      return res;
    },
    'GET /api/email/getchgptcode': async () => {
      const { user, subscriptionId, account } = await holder(8);
      await dovecot.deliver(account.email, openAiMail(account.email, randomCode(), harness().clock.now()));
      const res = await api(reading.app).get('/api/email/getchgptcode').set(user.auth).query({ subscriptionId });
      expect(res.body.code, 'the code found').to.be.a('string');
      return res;
    },
    'GET /api/health': () => api().get('/api/health'),
    'GET /api/openapi.json': () => api().get('/api/openapi.json'),
  };

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );
  const jsonSchemaOf = (operation: Operation) => operation.responses['200']?.content?.['application/json']?.schema;

  it('declares the answer of every call and has a sample for each', () => {
    const declared = operations().filter(
      // A JSON schema, another success status (204, a redirect), or a 200 of another content type (a file).
      ({ operation }) =>
        jsonSchemaOf(operation) ||
        Object.entries(operation.responses).some(([status, response]) => /^2|^3/.test(status) && (status !== '200' || response.content)),
    );
    const withoutDeclaration = operations().filter(({ key }) => !declared.some((candidate) => candidate.key === key));
    expect(
      declared.map(({ key }) => key).filter((key) => !SAMPLES[key]),
      'declared answers without a sample',
    ).to.deep.equal([]);
    expect(
      withoutDeclaration.map(({ key }) => key),
      'calls without a declared answer',
    ).to.deep.equal([]);
    expect(
      Object.keys(SAMPLES).filter((key) => !operations().some((candidate) => candidate.key === key)),
      'samples of calls that do not exist',
    ).to.deep.equal([]);
  });

  it('answers every call with what its schema declares', async () => {
    const failures: string[] = [];
    for (const { key, operation } of operations().filter((candidate) => SAMPLES[candidate.key])) {
      const res = await SAMPLES[key]();
      const schema = jsonSchemaOf(operation);
      if (!schema) {
        // Not JSON: the documented status (204, a redirect, a file).
        const [status] = Object.keys(operation.responses).filter((code) => /^[23]/.test(code));
        if (String(res.status) !== status) failures.push(`${key}: ${res.status}, documented ${status}`);
        const [contentType] = Object.keys(operation.responses[status].content ?? {});
        if (contentType && !String(res.headers['content-type']).startsWith(contentType))
          failures.push(`${key}: ${res.headers['content-type']}, documented ${contentType}`);
        continue;
      }
      if (res.status !== 200) {
        failures.push(`${key}: ${res.status} ${JSON.stringify(res.body)}`);
        continue;
      }
      const validate = compile(schema);
      if (!validate(res.body)) failures.push(`${key}: ${JSON.stringify(validate.errors)}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it('refuses an answer that differs from the declaration (a missing field, an undeclared one, a wrong type, null where none is allowed)', async () => {
    const login = compile(jsonSchemaOf(document.paths['/api/user/authenticate'].post)!);
    const user = await createUser();
    const good = (await api().post('/api/user/authenticate').send({ email: user.email, password: user.password }).expect(200)).body;
    expect(login(good)).to.equal(true);
    const { token: _token, ...withoutToken } = good;
    expect(login(withoutToken)).to.equal(false);
    expect(login({ ...good, passwordHash: 'x' })).to.equal(false);
    expect(login({ ...good, role: '2' })).to.equal(false);
    expect(login({ ...good, role: 3 })).to.equal(false);
    expect(login({ ...good, tokenExpiration: 'tomorrow' })).to.equal(false);
    expect(login({ ...good, isEmailVerified: null })).to.equal(false);
    expect(login({ ...good, photoUrl: null })).to.equal(true);
    const home = compile(jsonSchemaOf(document.paths['/api/main/home'].get)!);
    const page = (await api().get('/api/main/home').expect(200)).body;
    expect(home(page)).to.equal(true);
    expect(home({ ...page, platforms: [{ ...page.platforms[0], prices: 'free' }] })).to.equal(false);
  });
});
