/**
 * Spending credit on a payment (issue 37): the buyer's credit (modules/credit) and a payment
 * (modules/payments) meet here, each step inside the caller's transaction, each row named by a key
 * so a repeat writes nothing.
 *
 *   spend    a payment was opened (checkout, a renewal charge): credit in its currency is spent
 *            first, up to its amount (`spend:payment:<id>`); the payment records the part
 *            (`credit_minor`, provider `credit` when it covers all). The provider is asked for the
 *            rest, never less than its minimum charge (creditToSpend)
 *   release  a payment that will never be paid (abandoned for a new checkout, expired, failed)
 *            gives its credit back as a new lot (`release:payment:<id>`)
 *   paid     a payment paid after its credit was released (a Payssion or CoinPal checkout left open,
 *            paid late) takes it again (`respend:payment:<id>`), as far as the buyer has it, after
 *            the order's other pending payments gave theirs back
 *   refund   a refund gives back credit first, up to the credit its payment used (`return:refund:<id>`)
 *   covered  the report that pays a payment wholly covered by credit: applied like a provider's
 *            (PaymentNotificationFlow.applyIn), so the order is paid and activated like any
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { Logger } from '../shared/logger.js';
import { money, type CurrencyCode, type Money } from '../shared/money.js';
import { TOKENS } from '../shared/tokens.js';
import { CreditService } from '../modules/credit/index.js';
import { creditToSpend } from '../storefront/index.js';
import { PaymentsService, RefundsService, type PaymentMethodId, type PaymentView, type VerifiedReport } from '../modules/payments/index.js';

export const spendKey = (paymentId: number) => `spend:payment:${paymentId}`;
export const releaseKey = (paymentId: number) => `release:payment:${paymentId}`;
const respendKey = (paymentId: number) => `respend:payment:${paymentId}`;
export const returnKey = (refundId: number) => `return:refund:${refundId}`;

/** The statuses of a payment that will never be paid. */
const NEVER_PAID: ReadonlyArray<PaymentView['status']> = ['failed', 'expired'];

@injectable()
export class PaymentCredit {
  private readonly logger: Logger;

  constructor(
    @inject(TOKENS.Logger) logger: Logger,
    @inject(CreditService) private readonly credit: CreditService,
    @inject(PaymentsService) private readonly payments: PaymentsService,
    @inject(RefundsService) private readonly refunds: RefundsService,
  ) {
    this.logger = logger.child({ flow: 'payment-credit' });
  }

  /** Spends the buyer's credit on an opened (pending) payment, up to its amount; answers the payment as it now is. */
  async spend(payment: PaymentView, buyerId: number, trx: Knex.Transaction): Promise<PaymentView> {
    const { amount: total, currency } = payment.amount;
    const minimum = this.payments.minimumCharge(payment.method, currency);
    // Decided under the buyer's credit lock, so a spend elsewhere meanwhile cannot leave less than the minimum to pay.
    const spent = await this.credit.spend(
      buyerId,
      payment.amount,
      { key: spendKey(payment.id), orderId: payment.orderId, paymentId: payment.id },
      trx,
      (available) => creditToSpend(total, available, minimum),
    );
    return this.payments.takeCredit(payment, spent, trx);
  }

  /** What credit would pay of `total` if it were spent now on a payment by `method` (the renewal reminder tells the buyer). */
  async wouldCover(buyerId: number, total: Money, method: PaymentMethodId, trx?: Knex.Transaction): Promise<Money> {
    const available = (await this.credit.available(buyerId, total.currency, trx)).amount;
    return money(creditToSpend(total.amount, available, this.payments.minimumCharge(method, total.currency)), total.currency);
  }

  /**
   * What a checkout of the order would take from credit now (0 when the buyer opts out): the
   * buyer's available credit and what the order's open checkouts hold (given back when a new one
   * opens), up to the total. An open checkout that took a different part asks its provider for
   * another amount than this one would: it is not reused (PaymentsService.settleEarlierCheckouts).
   */
  async wouldSpend(orderId: number, buyerId: number, total: Money, method: PaymentMethodId, useCredit: boolean): Promise<number> {
    if (!useCredit) return 0;
    return creditToSpend(total.amount, (await this.availableFor(orderId, buyerId, total.currency)).amount, this.payments.minimumCharge(method, total.currency));
  }

  /**
   * The credit a checkout of the order could take now (the Order answer's `creditAvailable`): the
   * buyer's available credit in the order's currency and what the order's open checkouts hold
   * (given back when a new one opens, so a buyer back from a provider's page still sees it).
   */
  async availableFor(orderId: number, buyerId: number, currency: CurrencyCode): Promise<Money> {
    const held = (await this.payments.ofOrder(orderId))
      .filter((payment) => payment.status === 'pending')
      .reduce((sum, payment) => sum + payment.credit.amount, 0);
    return money((await this.credit.available(buyerId, currency)).amount + held, currency);
  }

  /**
   * Gives back the credit of the order's payments that will never be paid (failed, expired), and,
   * with `abandoning`, of its pending payments too: a new checkout leaves them (a provider's page
   * that cannot be closed may still be paid: `paid` takes the credit again then).
   */
  async release(orderId: number, trx: Knex.Transaction, { abandoning = false }: { abandoning?: boolean } = {}): Promise<void> {
    for (const payment of await this.payments.ofOrder(orderId, trx)) {
      if (payment.credit.amount <= 0) continue;
      if (!NEVER_PAID.includes(payment.status) && !(abandoning && payment.status === 'pending')) continue;
      const spent = await this.credit.spendOf(spendKey(payment.id), trx);
      if (!spent) continue;
      await this.credit.giveBack(spent.userId, 'released', spent.amount, { key: releaseKey(payment.id), orderId, paymentId: payment.id }, trx);
    }
  }

  /** A payment was paid: when its credit had been given back meanwhile, it takes it again (as far as the buyer has it). */
  async paid(paymentId: number, trx: Knex.Transaction): Promise<void> {
    const payment = await this.payments.byId(paymentId, trx);
    if (!payment || payment.credit.amount <= 0 || !(await this.credit.written(releaseKey(payment.id), trx))) return;
    const spent = await this.credit.spendOf(spendKey(payment.id), trx);
    if (!spent) return;
    // The order's newer checkouts still open took that credit again (a code applied, or another
    // method chosen, while this page stayed open): this payment pays the order, so they will never
    // be its payment (one paid too is refunded). Their credit goes back first, for this one to take:
    // else the order would be paid with credit that also returns to the buyer when they expire.
    await this.release(payment.orderId, trx, { abandoning: true });
    const again = await this.credit.spend(spent.userId, spent.amount, { key: respendKey(payment.id), orderId: payment.orderId, paymentId: payment.id }, trx);
    if (again.amount < spent.amount.amount) {
      this.logger.error(
        { paymentId, orderId: payment.orderId, credit: spent.amount, takenAgain: again },
        'a payment was paid after its credit was given back, and the buyer has spent that credit since: staff must look',
      );
    }
  }

  /**
   * A refund's credit part (RefundsService.recordCreditPart: the ledger's `credit` refund row) and
   * the credit itself given back to the buyer who spent it (`return:refund:<id>`), in one
   * transaction: credit first, before any money is asked of the provider. Nothing on a repeat.
   */
  async returnCreditPart(refundId: number, trx: Knex.Transaction): Promise<Money | undefined> {
    const part = await this.refunds.recordCreditPart(refundId, trx);
    if (!part) return undefined;
    const spent = await this.credit.spendOf(spendKey(part.paymentId), trx);
    if (!spent) throw new Error(`refund ${refundId} gives back credit that payment ${part.paymentId} never spent`);
    const links = { key: returnKey(refundId), orderId: part.orderId, paymentId: part.paymentId };
    // What the payment still holds of the buyer's credit: a checkout left open whose credit was
    // released (and spent elsewhere) before it was paid holds only what it took again. The rest
    // of its credit part went back then: giving it again would give it twice.
    const rows = (await this.credit.ofPayment(part.paymentId, trx)).filter((row) => row.key !== links.key);
    const held = rows.reduce((sum, row) => sum + (row.kind === 'spent' ? row.amount : row.kind === 'released' || row.kind === 'returned' ? -row.amount : 0), 0);
    const amount = money(Math.max(0, Math.min(part.credit.amount, held)), part.credit.currency);
    if (amount.amount < part.credit.amount) {
      this.logger.warn(
        { refundId, paymentId: part.paymentId, credit: part.credit, held },
        'a refund gives back less credit than its credit part: the rest went back when the checkout was released',
      );
    }
    await this.credit.giveBack(spent.userId, 'returned', amount, links, trx);
    return amount;
  }

  /** The report that pays a payment wholly covered by credit (no provider is asked); applied like any provider's paid report. */
  coveredReport(payment: PaymentView): VerifiedReport {
    const charged: Money = payment.charged;
    return {
      provider: 'credit',
      report: {
        eventId: `credit:${payment.reference}`,
        eventType: 'credit.paid',
        reference: payment.reference,
        status: 'paid',
        amount: charged,
        needsConfirmation: false,
      },
      payload: JSON.stringify({ source: 'credit', paymentId: payment.id, credit: payment.credit }),
    };
  }
}
