/**
 * The pages of the renewal e-mails' links (issue 28), signed tokens read at `/api/subscribe/autorenew/…`:
 *
 *   cancel link  GET ──▶ a page that asks to confirm (a prefetcher's GET changes nothing)
 *                POST ──▶ RenewalSwitchFlow.change: renewal off, audited with the buyer as actor
 *   pay link     GET ──▶ a page with one button saying what will be charged
 *                POST ──▶ the period's renewal order (made once, parallel POSTs take turns on its
 *                         charge row) ──▶ CheckoutFlow.start with the method it was bought with ──▶ 303
 *
 * A link follows the buyer to the subscription that carries theirs on (issue 33); its page speaks
 * the language of the order that bought it. The links are signed by the charge pass (renewal.flow.ts).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Clock } from '../shared/clock.js';
import type { AppConfig } from '../shared/config.js';
import { money, type CurrencyCode } from '../shared/money.js';
import { TOKENS } from '../shared/tokens.js';
import { ROLES, type AuthenticatedUser, type RequestContext } from '../modules/identity/index.js';
import { emailDate, type EmailLanguageId as LanguageId } from '../modules/notifications/index.js';
import { ORDER_STATE, OrdersService } from '../modules/orders/index.js';
import { PaymentsService } from '../modules/payments/index.js';
import { readRenewalLink, RenewalsService, type RenewalLinkPurpose } from '../modules/renewals/index.js';
import { SubscriptionsService, type SubscriptionView } from '../modules/subscriptions/index.js';
import { CheckoutFlow } from './checkout.flow.js';
import { moneyLabel } from './order-access.js';
import { RENEWAL_LINK_TEXTS, type RenewalLinkFacts, type RenewalLinkTexts } from './renewal-link-texts.js';
import { keyOf, methodOf, renewalOrderOf } from './renewal-terms.js';
import { RenewalSwitchFlow } from './renewal-switch.flow.js';
import { pagePath } from '../pages/index.js';

/** The HTML page a link answers (http renders it in the shop's frame): its status, language and words. */
export interface LinkPage {
  status: number;
  /** The order's language (the e-mail's), or the visitor's when the link names no order. */
  languageId: LanguageId;
  title: string;
  message: string;
  /** Label and value rows: platform, period, amount, end of access. */
  facts?: Array<[label: string, value: string]>;
  /** Said just above the confirm button (what will be charged). */
  note?: string;
  /** A confirm form (POST to the same address, the token in a hidden field). */
  confirm?: { token: string; label: string };
  /** Where to go from here (the panel, the shop); paths of this site. */
  links?: Array<{ href: string; label: string }>;
  /** Where the browser goes next (a provider's checkout page). */
  redirect?: string;
}

@injectable()
export class RenewalLinksFlow {
  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(PaymentsService) private readonly payments: PaymentsService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(RenewalsService) private readonly renewals: RenewalsService,
    @inject(CheckoutFlow) private readonly checkout: CheckoutFlow,
    @inject(RenewalSwitchFlow) private readonly renewalSwitch: RenewalSwitchFlow,
  ) {}

  /**
   * What a link's page says about its subscription, in the language of the order that bought it
   * (the e-mail's language): the platform, the period, the amount of the period's charge (or the
   * renewal price) in the order's currency, and the end of access as the e-mail writes dates.
   */
  private async linkSubject(subscription: SubscriptionView, periodEnd: number) {
    const source = await this.orders.orderOfItem(subscription.orderItemId);
    const item = source?.items.find((candidate) => candidate.id === subscription.orderItemId);
    if (!source || !item) return undefined;
    const languageId = source.languageId === 2 ? 2 : 1;
    const charge = await this.renewals.chargeOfPeriod(subscription.id, new Date(periodEnd));
    const amount = charge
      ? money(charge.amountMinor, charge.currency as CurrencyCode)
      : ((await this.orders.renewalPrice(item, source.total.currency, source.languageId)) ?? item.unitPrice);
    const texts = RENEWAL_LINK_TEXTS[languageId];
    const facts: RenewalLinkFacts = {
      subscriptionId: await this.knownId(subscription.id),
      platform: item.platformName,
      period: texts.period(item.months),
      amount: moneyLabel(amount),
      endsAt: emailDate(languageId, subscription.endsAt),
    };
    return { languageId, texts, facts, source, item } as const;
  }

  /** A page that tells the buyer one thing and links back to their panel. */
  private static panelPage(
    subscription: SubscriptionView,
    subject: { languageId: LanguageId; texts: RenewalLinkTexts },
    title: string,
    message: string,
  ): LinkPage {
    return { status: 200, languageId: subject.languageId, title, message, links: [{ href: pagePath.user(subscription.userId), label: subject.texts.panel }] };
  }

  /** The facts rows of a link's page. */
  private static factRows(texts: RenewalLinkTexts, facts: RenewalLinkFacts, amountLabel: 'amount' | 'toPay'): Array<[string, string]> {
    return [
      [texts.labels.platform, facts.platform],
      [texts.labels.period, facts.period],
      [texts.labels[amountLabel], facts.amount],
      [texts.labels.endsAt, facts.endsAt],
    ];
  }

  private invalidLink(languageId: LanguageId, message: (texts: RenewalLinkTexts) => string, status = 404): LinkPage {
    const texts = RENEWAL_LINK_TEXTS[languageId];
    return { status, languageId, title: texts.invalidTitle, message: message(texts), links: [{ href: '/', label: texts.shop }] };
  }

  /**
   * How the GET pages of both links start: the link read, and its subscription followed to the one
   * that carries it on when the buyer moved since the e-mail (issue 33), with what the page says of
   * it; or the page to answer when the link is invalid or its subscription gone.
   */
  private async openLinkPage(token: string, purpose: RenewalLinkPurpose, visitorLanguage: LanguageId) {
    const link = await readRenewalLink(token, purpose, this.config.tokenSecret, this.clock.now());
    if (!link) return { invalid: this.invalidLink(visitorLanguage, (texts) => (purpose === 'cancel' ? texts.invalidCancel : texts.invalidPay)) };
    const subscription = await this.subscriptions.current(link.subscriptionId);
    const subject = subscription && (await this.linkSubject(subscription, link.periodEnd));
    if (!subscription || !subject) return { invalid: this.invalidLink(visitorLanguage, (texts) => texts.gone) };
    return { link, subscription, subject };
  }

  /** GET of the cancel link: a page that asks to confirm (a link prefetcher's GET changes nothing). `visitorLanguage` answers a link that names no order. */
  async cancelLinkPage(token: string, visitorLanguage: LanguageId): Promise<LinkPage> {
    const opened = await this.openLinkPage(token, 'cancel', visitorLanguage);
    if (opened.invalid) return opened.invalid;
    const { subscription, subject } = opened;
    const { languageId, texts, facts } = subject;
    const panel = { href: pagePath.user(subscription.userId), label: texts.panel };
    const setting = await this.renewals.settingOf(keyOf(subscription));
    if (!setting?.enabled) return RenewalLinksFlow.panelPage(subscription, subject, texts.offTitle, texts.off(facts));
    return {
      status: 200,
      languageId,
      title: texts.cancelTitle,
      message: texts.cancel(facts),
      facts: RenewalLinksFlow.factRows(texts, facts, 'amount'),
      confirm: { token, label: texts.cancelLabel },
      links: [panel],
    };
  }

  /** POST of the cancel link's page: turns automatic renewal off (audited, the buyer as actor). */
  async cancelByLink(token: string, context: RequestContext, visitorLanguage: LanguageId): Promise<LinkPage> {
    const link = await readRenewalLink(token, 'cancel', this.config.tokenSecret, this.clock.now());
    if (!link) return this.invalidLink(visitorLanguage, (texts) => texts.invalidCancel);
    const subscription = await this.subscriptions.current(link.subscriptionId);
    if (!subscription) return this.invalidLink(visitorLanguage, (texts) => texts.gone);
    await this.renewalSwitch.change(subscription, false, { userId: subscription.userId, label: 'buyer (e-mail link)', ip: context.ip }, 'email_link');
    const subject = await this.linkSubject(subscription, link.periodEnd);
    if (!subject) return this.invalidLink(visitorLanguage, (texts) => texts.gone);
    return RenewalLinksFlow.panelPage(subscription, subject, subject.texts.cancelledTitle, subject.texts.cancelled(subject.facts));
  }

  /** GET of the payment link: a page with one button (a prefetcher starts nothing); it says what will be charged. */
  async payLinkPage(token: string, visitorLanguage: LanguageId): Promise<LinkPage> {
    const opened = await this.openLinkPage(token, 'pay', visitorLanguage);
    if (opened.invalid) return opened.invalid;
    const { link, subscription, subject } = opened;
    const { languageId, texts, facts, item } = subject;
    const panel = { href: pagePath.user(subscription.userId), label: texts.panel };
    if (subscription.endsAt.getTime() > link.periodEnd) return RenewalLinksFlow.panelPage(subscription, subject, texts.renewedTitle, texts.renewed(facts));
    if (subscription.status !== 'active')
      return {
        status: 200,
        languageId,
        title: texts.invalidTitle,
        message: texts.ended,
        links: [{ href: pagePath.platform(item.platformId), label: texts.shop }],
      };
    return {
      status: 200,
      languageId,
      title: texts.payTitle(facts),
      message: texts.pay(facts),
      facts: RenewalLinksFlow.factRows(texts, facts, 'toPay'),
      note: texts.payNote(facts),
      confirm: { token, label: texts.payLabel(facts) },
      links: [panel],
    };
  }

  /**
   * POST of the payment link's page: the renewal order of that period (made once, a new one when
   * the previous expired), and the checkout of the method the subscription was bought with; the
   * browser goes on to the provider's page. Paid, the order extends the same subscription.
   */
  async payByLink(token: string, context: RequestContext, visitorLanguage: LanguageId): Promise<LinkPage> {
    const link = await readRenewalLink(token, 'pay', this.config.tokenSecret, this.clock.now());
    if (!link) return this.invalidLink(visitorLanguage, (texts) => texts.invalidPay);
    const subscription = await this.subscriptions.current(link.subscriptionId);
    if (!subscription || subscription.status !== 'active') return this.invalidLink(visitorLanguage, (texts) => texts.ended);
    const subject = await this.linkSubject(subscription, link.periodEnd);
    if (!subject) return this.invalidLink(visitorLanguage, (texts) => texts.notHere);
    const { source, item } = subject;
    if (subscription.endsAt.getTime() > link.periodEnd) {
      return RenewalLinksFlow.panelPage(subscription, subject, subject.texts.renewedTitle, subject.texts.renewed(subject.facts));
    }
    const periodEnd = new Date(link.periodEnd);
    const order = await this.knex.transaction(async (trx) => {
      const price = await this.orders.renewalPrice(item, source.total.currency, source.languageId);
      // Parallel POSTs of one link: the charge row (unique per period) is made once and then locked,
      // so they take turns here and find its order; its checkout is then shared (checkout.flow.ts).
      const charge =
        (await this.renewals.chargeOfPeriod(subscription.id, periodEnd, trx)) ??
        (await this.renewals.createCharge(
          {
            subscriptionId: subscription.id,
            periodEnd,
            kind: 'manual',
            status: 'manual',
            amountMinor: price?.amount ?? item.unitPrice.amount,
            currency: source.total.currency,
            cardLast4: null,
            nextAttemptAt: null,
            reminderKey: `subscription:${subscription.id}:reminder:${periodEnd.toISOString()}`,
          },
          trx,
        )) ??
        // Another POST made it first (the insert waited for it and was ignored): that one, locked.
        (await this.renewals.chargeOfPeriod(subscription.id, periodEnd, trx))!;
      const existing = charge.orderId ? await this.orders.find(charge.orderId, trx) : undefined;
      if (existing && [ORDER_STATE.created, ORDER_STATE.awaitingPayment, ORDER_STATE.paymentFailed].includes(existing.state as 0 | 1 | 3)) return existing;
      const made = await this.orders.createRenewalOrder(renewalOrderOf(subscription, source, item), trx);
      await this.renewals.update(charge.id, { orderId: made.id }, trx);
      return made;
    });
    const buyer: AuthenticatedUser = {
      id: subscription.userId,
      email: source.email,
      name: null,
      photoUrl: null,
      role: ROLES.user,
      isEmailVerified: true,
      languageId: source.languageId,
      sessionId: 'renewal-link',
    };
    const methods = this.payments.availableMethods(order.paymentMethods);
    const method = methods.includes(methodOf(source)) ? methodOf(source) : methods[0];
    if (method === undefined) return this.invalidLink(subject.languageId, (texts) => texts.notHere, 409);
    const { url } = await this.checkout.start(buyer, { orderId: order.id }, method, context);
    return {
      status: 303,
      languageId: subject.languageId,
      title: subject.texts.payTitle(subject.facts),
      message: subject.texts.payNote(subject.facts),
      redirect: url,
    };
  }

  /** The ID the buyer knows for this subscription: the first of its replacement chain (issue 33). */
  private async knownId(subscriptionId: number): Promise<number> {
    return (await this.subscriptions.origins([subscriptionId])).get(subscriptionId)?.id ?? subscriptionId;
  }
}
