/**
 * Buyers can say it doesn't work (issue 33).
 *
 *   buyer: POST /api/subscribe/reportproblem { subscriptionId, kind, note? } (the holder only)
 *     │ ONE transaction: lock the account row, then the subscription row (the move's order, so a
 *     │ report and a move never deadlock) → active and theirs, else 404/409 → a report of this
 *     │ subscription within the hour? 409 `problem_already_reported` (the subscription lock makes
 *     │ a burst of parallel reports count one) → record it, audited `account.problem.report`
 *     │ → different buyers who reported the account within the hour (since staff last set it ok):
 *     │     fewer than ACCOUNT_REPORTS_TO_BREAK (default 2, never 1): attention
 *     │     enough: broken and its buyers moved (`account-health-move` in the same transaction),
 *     │       unless the platform's circuit breaker holds it: then attention, staff alerted once
 *     ▼
 *   answer: self-help at once (the login to use, household link or code steps, "we are checking")
 *
 *   staff: POST /api/subscribe/confirmreport { reportId }: broken, buyers moved, audited
 *     `account.problem.confirm`. Staff decide, so the breaker does not hold it.
 *
 * One buyer alone never breaks an account: reports are counted per buyer, not per report.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../shared/config.js';
import type { Clock } from '../shared/clock.js';
import { fail } from '../shared/errors.js';
import type { JobQueue } from '../shared/jobs.js';
import type { Logger } from '../shared/logger.js';
import { TOKENS } from '../shared/tokens.js';
import type { AccountHealthState } from '../validation/alert-rules.js';
import { PROBLEM_REPORT_WINDOW_MS } from '../validation/problem-reports.js';
import type { ConfirmReportInput, ReportProblemInput } from '../wire/problem-reports.js';
import {
  ACCOUNT_QUEUES,
  AccountHealthService,
  type AccountHealthView,
  AccountsService,
  AccountVoicesService,
  type PlatformIncidentView,
  type ProblemReportView,
} from '../modules/accounts/index.js';
import { type AuditActor, AuditService } from '../modules/audit/index.js';
import { OrdersService } from '../modules/orders/index.js';
import { HealthMovesService, SubscriptionsService } from '../modules/subscriptions/index.js';
import { CircuitBreaker } from './circuit-breaker.js';

const RANK: Record<AccountHealthState, number> = { ok: 0, attention: 1, broken: 2 };
const REPORTS: AuditActor = { label: 'buyer reports' };
/** Staff see an account's reports of the last week, at most this many. */
const STAFF_REPORTS_MS = 7 * 24 * 3600_000;
const STAFF_REPORTS_MAX = 20;

export interface ProblemSelfHelp {
  report: ProblemReportView;
  loginEmail: string | null;
  mayNotWork: boolean;
  help: 'householdLink' | 'loginCode' | 'none';
}

/** What staff see beside an account: its recent reports, and its platform's open incident. */
export interface AccountVoices {
  reports: ProblemReportView[];
  incident: PlatformIncidentView | null;
  /** ACCOUNT_BREAKS_PER_HOUR, for the incident's banner. */
  breaksPerHour: number;
}

@injectable()
export class AccountReportsFlow {
  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(AccountHealthService) private readonly health: AccountHealthService,
    @inject(AccountVoicesService) private readonly voices: AccountVoicesService,
    @inject(AccountsService) private readonly accounts: AccountsService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
    @inject(HealthMovesService) private readonly moves: HealthMovesService,
    @inject(OrdersService) private readonly orders: OrdersService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(CircuitBreaker) private readonly breaker: CircuitBreaker,
  ) {}

  /** POST /api/subscribe/reportproblem: the holder of an active subscription says it doesn't work. */
  async report(actor: AuditActor, userId: number, input: ReportProblemInput): Promise<ProblemSelfHelp> {
    // A first read only to find the account (404 when there is no such subscription); everything
    // is checked again under the locks. Another buyer's subscription answers as one that does not
    // exist: nothing about it is revealed.
    const first = await this.subscriptions.get(input.subscriptionId);
    if (first.userId !== userId) throw fail('subscription_not_found');
    const { report, state } = await this.health.transaction(async (trx) => {
      const account = await this.health.lock(first.platformAccountId, trx);
      const subscription = await this.subscriptions.lock(first.id, trx);
      if (!account || !subscription || subscription.userId !== userId) throw fail('subscription_not_found');
      if (subscription.status !== 'active' || subscription.platformAccountId !== account.id) throw fail('subscription_not_active');
      const now = this.clock.now();
      if (await this.voices.reportOfSubscriptionSince(subscription.id, new Date(now.getTime() - PROBLEM_REPORT_WINDOW_MS), trx)) {
        throw fail('problem_already_reported');
      }
      const note = input.note?.trim() ? input.note.trim() : null;
      const report = await this.voices.addReport({ subscriptionId: subscription.id, userId, accountId: account.id, kind: input.kind, note, at: now }, trx);
      await this.audit.record(
        actor,
        {
          action: 'account.problem.report',
          targetType: 'subscription',
          targetId: subscription.id,
          // The note is the buyer's own words: kept with the report for staff, not copied here.
          details: { reportId: report.id, accountId: account.id, kind: input.kind, withNote: note !== null },
        },
        trx,
      );
      return { report, state: await this.weigh(account, now, trx) };
    });
    this.logger.info({ reportId: report.id, accountId: report.accountId, kind: report.kind, state }, 'buyer reported a problem');
    return this.selfHelp(report, first.orderItemId, state);
  }

  /**
   * The account's health after a report: attention for any report, broken when enough different
   * buyers reported it within the hour (since staff last set it ok), unless the breaker holds it.
   */
  private async weigh(account: AccountHealthView, now: Date, trx: Knex.Transaction): Promise<AccountHealthState> {
    if (account.state === 'broken') return 'broken';
    let from = now.getTime() - PROBLEM_REPORT_WINDOW_MS;
    // Staff repaired it: reports from before the repair are about the old trouble.
    if (account.state === 'ok' && account.cause?.kind === 'staff' && account.since) from = Math.max(from, account.since.getTime());
    const reporters = await this.voices.reportersSince(account.id, new Date(from), trx);
    const cause = {
      kind: 'buyerReports',
      reason: `${reporters} buyer${reporters === 1 ? '' : 's'} reported that it doesn't work`,
      reports: reporters,
      receivedAt: now.toISOString(),
    };
    let to: AccountHealthState = reporters >= this.config.accountHealth.reportsToBreak ? 'broken' : 'attention';
    if (to === 'broken' && (await this.breaker.holds(account, cause, REPORTS, trx))) to = 'attention';
    if (RANK[to] <= RANK[account.state]) return account.state;
    await this.health.set(account.id, to, now, cause, trx);
    await this.audit.record(
      REPORTS,
      { action: 'account.health', targetType: 'platform_account', targetId: account.id, details: { from: account.state, to, reports: cause } },
      trx,
    );
    if (to === 'broken') await this.jobs.send(ACCOUNT_QUEUES.healthMove.name, { accountId: account.id }, { trx });
    return to;
  }

  /** The self-help the buyer sees at once: the login to use, the household link or code steps, "we are checking". */
  private async selfHelp(report: ProblemReportView, orderItemId: number, state: AccountHealthState): Promise<ProblemSelfHelp> {
    const order = await this.orders.orderOfItem(orderItemId);
    const item = order?.items.find((candidate) => candidate.id === orderItemId);
    const [account] = await this.accounts.accountsByIds([report.accountId]);
    const waiting = (await this.moves.ofSubscriptions([report.subscriptionId])).some((move) => move.subscriptionId === report.subscriptionId && !move.movedAt);
    const invitation = item?.haveInvitation ?? false;
    // The account's mailbox serves only shared logins (the panel's rule): a family invitation uses the buyer's own e-mail.
    const help = invitation ? 'none' : item?.platformCategory === 0 ? 'householdLink' : item?.platformCategory === 8 ? 'loginCode' : 'none';
    return {
      report,
      loginEmail: invitation ? null : (account?.email ?? null),
      mayNotWork: state === 'broken' || waiting,
      help,
    };
  }

  /** POST /api/subscribe/confirmreport (staff): the report is right; the account is broken and its buyers moved. */
  async confirm(actor: AuditActor, input: ConfirmReportInput): Promise<{ reportId: number; accountId: number; state: AccountHealthState }> {
    return this.health.transaction(async (trx) => {
      const report = await this.voices.lockReport(input.reportId, trx);
      if (!report) throw fail('report_not_found');
      const account = await this.health.lock(report.accountId, trx);
      if (!account) throw fail('report_not_found');
      const now = this.clock.now();
      await this.voices.markConfirmed(report.id, actor.userId ?? null, now, trx);
      if (account.state !== 'broken') {
        // Staff decide: the breaker does not hold this, and a staff break does not count against it.
        const cause = { kind: 'staff', reason: `confirmed buyer report #${report.id} (${report.kind})`, by: actor.label };
        await this.health.set(account.id, 'broken', now, cause, trx);
        await this.jobs.send(ACCOUNT_QUEUES.healthMove.name, { accountId: account.id }, { trx });
      }
      await this.audit.record(
        actor,
        {
          action: 'account.problem.confirm',
          targetType: 'platform_account',
          targetId: account.id,
          details: { reportId: report.id, kind: report.kind, from: account.state, to: 'broken' },
        },
        trx,
      );
      return { reportId: report.id, accountId: account.id, state: 'broken' as const };
    });
  }

  /** Beside each account in staff's health list: its reports of the last week and its platform's open incident. */
  async staffView(accounts: Array<{ id: number; platformId: number }>): Promise<Map<number, AccountVoices>> {
    const since = new Date(this.clock.now().getTime() - STAFF_REPORTS_MS);
    const reports = await this.voices.reportsOfAccounts(
      accounts.map((account) => account.id),
      since,
      STAFF_REPORTS_MAX,
    );
    const incidents = await this.breaker.openIncidents();
    const answer = new Map<number, AccountVoices>();
    for (const account of accounts) {
      answer.set(account.id, {
        reports: reports.filter((report) => report.accountId === account.id),
        incident: incidents.filter((incident) => incident.platformId === account.platformId).at(-1) ?? null,
        breaksPerHour: this.config.accountHealth.breaksPerHour,
      });
    }
    return answer;
  }
}
