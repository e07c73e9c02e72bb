/**
 * Platform accounts (the spec's "subscriber") and the mailboxes behind their login e-mails
 * (the spec's "bemail"): what staff add so that paid orders have slots to go to.
 *
 * Their passwords must be readable again (buyers are shown them; the mailbox reader logs in),
 * so they are encrypted at rest with the credentials cipher, never hashed and never logged.
 * Every reveal to staff leaves an audit entry; the audit entries themselves hold no password.
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { CredentialsCipher, storedKeyId } from '../../shared/credentials-cipher.js';
import { ConflictError, fail } from '../../shared/errors.js';
import type { JobQueue } from '../../shared/jobs.js';
import { TOKENS } from '../../shared/tokens.js';
import { INTEGER_MAX } from '../../wire/fields.js';
import type { AccountInput } from '../../wire/subscriptions.js';
import { type AuditActor, AuditService } from '../audit/index.js';
import { CatalogService } from '../catalog/index.js';
import { PlatformAccountRepository } from './account.repository.js';
import { generateMailboxAddress, generateMailboxPassword } from './mailbox-generator.js';
import { MailboxRepository, type StoredSecret } from './mailbox.repository.js';
import type { PlatformAccountRow } from './models/platform-account.model.js';
import { ACCOUNT_QUEUES } from './queues.js';

/** An account as slot claims see it: its id and how many slots it has. */
export interface AccountSlots {
  id: number;
  slotsCount: number;
}

/** A platform account as staff see it: everything but the password. */
export interface PlatformAccountView {
  id: number;
  platformId: number;
  email: string;
  slotsCount: number;
  femail: string;
  mailboxId: number | null;
  /** ok, attention or broken (see account-health.service.ts). */
  health: 'ok' | 'attention' | 'broken';
}

/** A mailbox with its password in clear: only ever handed to staff (audited) or the operator. */
export interface MailboxView {
  id: number;
  platformId: number | null;
  email: string;
  password: string;
}

export interface AccountCredentials {
  email: string;
  password: string;
}

/** What the mailbox reader needs to log in to an account's mailbox; the password in clear. */
export interface AccountMailboxLogin {
  mailboxId: number;
  /** The mailbox's address (the IMAP user name). */
  address: string;
  password: string;
  /** The account's login e-mail: platform e-mails are addressed to it. */
  accountEmail: string;
}

export interface CredentialsRotationResult {
  fromKeyId: string;
  toKeyId: string;
  /** Rows re-encrypted from the old key to the new one. */
  mailboxes: number;
  accounts: number;
  /** Rows already on the new key (an earlier, interrupted or repeated rotation). */
  skipped: number;
}

/** How many fresh addresses to try before giving up (a collision is about one in 30 million). */
const ADDRESS_ATTEMPTS = 5;
/** Serialises demo seeders (two `npm start` on one data directory): the bytes of "SUBSDA". */
const DEMO_ACCOUNTS_LOCK_KEY = 0x535542534441n;
/** Staff-made account passwords are 6 to 18 characters (spec section 5); a demo one is as long as allowed. */
const DEMO_ACCOUNT_PASSWORD_LENGTH = 18;

@injectable()
export class AccountsService {
  constructor(
    @inject(TOKENS.Knex) private readonly knex: Knex,
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(CredentialsCipher) private readonly cipher: CredentialsCipher,
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(PlatformAccountRepository) private readonly accounts: PlatformAccountRepository,
    @inject(MailboxRepository) private readonly mailboxes: MailboxRepository,
  ) {}

  /**
   * POST /api/subscribe/insert { email, password, platformId, slotsCount, femail }: a shared
   * account on a platform. One account per (platform, login e-mail). The mailbox whose address
   * is the login e-mail, if there is one, is linked (and given to the platform if unassigned).
   * The `account-created` event is sent in the same transaction: new capacity lets waiting
   * orders of the platform be activated (the subscriptions work listens to it).
   */
  async createAccount(actor: AuditActor, payload: AccountInput): Promise<PlatformAccountView> {
    return this.knex.transaction(async (trx) => {
      await this.requirePlatform(payload.platformId, trx);
      const mailbox = await this.mailboxes.findByEmail(payload.email, trx);
      const now = this.clock.now();
      const account = await this.accounts.insert(
        {
          platform_id: payload.platformId,
          login_email: payload.email,
          password_encrypted: this.cipher.encrypt(payload.password),
          slots_count: payload.slotsCount,
          forwarding_email: payload.femail,
          mailbox_id: mailbox?.id ?? null,
          created_at: now,
          updated_at: now,
        },
        trx,
      );
      if (mailbox) await this.mailboxes.assignIfUnassigned(mailbox.id, payload.platformId, trx);
      const view = toAccountView(account);
      await this.recordCreated(
        actor,
        view,
        { platformId: view.platformId, email: view.email, slotsCount: view.slotsCount, femail: view.femail, mailboxId: view.mailboxId },
        trx,
      );
      return view;
    });
  }

  /**
   * Demo mode only (`npm start` without DATABASE_URL): one account for every platform that has
   * none, so that a newcomer's purchase activates at once instead of waiting for staff. Each is
   * marked `is_demo`, logs in with a demo mailbox of its own (`demo-…@MAILBOX_DOMAIN`) and has
   * generated passwords, encrypted like any other; its slots are the platform's. Safe on every
   * start: serialised, and a platform with any account (staff's, or an earlier demo one) is left
   * alone. Production mode refuses: a real shop must never sell a slot on a made-up account.
   */
  async seedDemoAccounts(actor: AuditActor): Promise<PlatformAccountView[]> {
    if (this.config.mode !== 'demo') throw new Error('Demo accounts are seeded in demo mode only (no DATABASE_URL).');
    return this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?::bigint)', [String(DEMO_ACCOUNTS_LOCK_KEY)]);
      const seeded: PlatformAccountView[] = [];
      for (const platform of await this.accounts.platformsWithoutAccounts(trx)) {
        const mailbox = await this.insertMailbox(platform.id, generateMailboxPassword(), trx, 'demo-');
        const now = this.clock.now();
        const account = await this.accounts.insert(
          {
            platform_id: platform.id,
            login_email: mailbox.email,
            password_encrypted: this.cipher.encrypt(generateMailboxPassword(DEMO_ACCOUNT_PASSWORD_LENGTH)),
            slots_count: platform.slots_count,
            forwarding_email: mailbox.email,
            mailbox_id: mailbox.id,
            is_demo: true,
            created_at: now,
            updated_at: now,
          },
          trx,
        );
        const view = toAccountView(account);
        await this.recordCreated(
          actor,
          view,
          { platformId: view.platformId, email: view.email, slotsCount: view.slotsCount, mailboxId: view.mailboxId, demo: true },
          trx,
        );
        seeded.push(view);
      }
      return seeded;
    });
  }

  /**
   * A new account, staff's or a demo one, is audited as `account.create` and announced by the
   * `account-created` event in its transaction (waiting orders of the platform may now activate).
   */
  private async recordCreated(actor: AuditActor, view: PlatformAccountView, details: Record<string, unknown>, trx: Knex.Transaction): Promise<void> {
    await this.audit.record(actor, { action: 'account.create', targetType: 'platform_account', targetId: view.id, details }, trx);
    await this.jobs.send(ACCOUNT_QUEUES.created.name, { accountId: view.id, platformId: view.platformId }, { trx });
  }

  /**
   * GET /api/subscribe/createbemail: a new mailbox on MAILBOX_DOMAIN with a generated password,
   * optionally assigned to a platform. The password is answered once here (the caller is staff
   * or the operator; the audit entry says a mailbox was made, not its password).
   */
  async createMailbox(actor: AuditActor, { platformId }: { platformId?: number } = {}): Promise<MailboxView> {
    const password = generateMailboxPassword();
    return this.knex.transaction(async (trx) => {
      if (platformId !== undefined) await this.requirePlatform(platformId, trx);
      const created = await this.insertMailbox(platformId ?? null, password, trx);
      await this.audit.record(
        actor,
        { action: 'mailbox.create', targetType: 'mailbox', targetId: created.id, details: { email: created.email, platformId: created.platformId } },
        trx,
      );
      return created;
    });
  }

  /** A mailbox at a fresh generated address (`prefix` before it), its password encrypted. */
  private async insertMailbox(platformId: number | null, password: string, trx: Knex.Transaction, prefix = ''): Promise<MailboxView> {
    for (let attempt = 0; attempt < ADDRESS_ATTEMPTS; attempt += 1) {
      const created = await this.mailboxes.insertIfNew(
        {
          platform_id: platformId,
          email: prefix + generateMailboxAddress(this.config.mailbox.domain),
          password_encrypted: this.cipher.encrypt(password),
          created_at: this.clock.now(),
        },
        trx,
      );
      if (created) return { id: created.id, platformId: created.platform_id, email: created.email, password };
    }
    throw fail('mailbox_address_exhausted');
  }

  /**
   * GET /api/subscribe/getbemails?plaformId: the platform's mailboxes and the unassigned ones,
   * with their passwords (the admin "create subscription" screen). One audit entry per call
   * names every mailbox whose password was revealed.
   */
  async listMailboxes(actor: AuditActor, { platformId }: { platformId: number }): Promise<MailboxView[]> {
    await this.requirePlatform(platformId);
    const rows = await this.mailboxes.listForPlatform(platformId);
    const views = rows.map((row) => ({ id: row.id, platformId: row.platform_id, email: row.email, password: this.cipher.decrypt(row.password_encrypted) }));
    if (views.length > 0) {
      await this.audit.record(actor, {
        action: 'mailbox.reveal',
        targetType: 'platform',
        targetId: platformId,
        details: { platformId, mailboxIds: views.map((view) => view.id) },
      });
    }
    return views;
  }

  /** The platform's accounts that take new subscriptions, by id, with their slot counts (the subscriptions work picks slots on them). */
  async activeSlotCounts(platformId: number, trx?: Knex.Transaction): Promise<AccountSlots[]> {
    return (await this.accounts.activeSlotCountsOfPlatform(platformId, trx)).map((row) => ({ id: row.id, slotsCount: row.slots_count }));
  }

  /**
   * How many accounts that take new subscriptions each platform has (the catalog editor warns
   * about a platform on sale with none: its orders would wait). Only `platformId`'s when given.
   */
  async activeAccountCounts(platformId?: number): Promise<Map<number, number>> {
    return this.accounts.activeCountsByPlatform(platformId);
  }

  /** Every account that takes new subscriptions, by platform then id (the dashboard's slot occupancy). */
  async allActiveAccounts(trx?: Knex.Transaction): Promise<PlatformAccountView[]> {
    return (await this.accounts.allActive(trx)).map(toAccountView);
  }

  /** Accounts by id, active or not, without their passwords (unknown ids are left out). */
  async accountsByIds(ids: number[], trx?: Knex.Transaction): Promise<PlatformAccountView[]> {
    if (ids.length === 0) return [];
    return (await this.accounts.findByIds([...new Set(ids)], trx)).map(toAccountView);
  }

  /**
   * Accounts by id, each with its login and password in clear on demand (decrypted only when
   * asked), in one query: the panel reveals the passwords of several subscriptions at once.
   * Nothing is audited here, as for `accountCredentials`.
   */
  async accountsWithCredentials(ids: number[]): Promise<Array<{ account: PlatformAccountView; credentials: () => AccountCredentials }>> {
    if (ids.length === 0) return [];
    return (await this.accounts.findByIds([...new Set(ids)])).map((row) => ({
      account: toAccountView(row),
      credentials: () => ({ email: row.login_email, password: this.cipher.decrypt(row.password_encrypted) }),
    }));
  }

  /**
   * An account's login, password in clear, for the panel and staff views. Nothing is audited
   * here: the caller knows who is reading and why, and records it.
   */
  async accountCredentials(accountId: number, trx?: Knex.Transaction): Promise<AccountCredentials> {
    const account = Number.isSafeInteger(accountId) && accountId > 0 ? await this.accounts.findById(accountId, trx) : undefined;
    if (!account) throw fail('account_not_found');
    return { email: account.login_email, password: this.cipher.decrypt(account.password_encrypted) };
  }

  /**
   * The mailbox behind an account, with its password in clear, for the mailbox reader only;
   * undefined when the account has no mailbox. Nothing is audited here: the caller knows who
   * asked and records it.
   */
  async mailboxLogin(accountId: number): Promise<AccountMailboxLogin | undefined> {
    const account = Number.isSafeInteger(accountId) && accountId > 0 ? await this.accounts.findWithMailbox(accountId) : undefined;
    if (!account) throw fail('account_not_found');
    // No mailbox linked: the account's own login address may be one of the shop's mailboxes.
    const mailbox = account.mailbox ?? (account.mailbox_id === null ? await this.mailboxes.findByEmail(account.login_email) : undefined);
    if (!mailbox) return undefined;
    return { mailboxId: mailbox.id, address: mailbox.email, password: this.cipher.decrypt(mailbox.password_encrypted), accountEmail: account.login_email };
  }

  /**
   * Re-encrypts every stored password from `oldKey` to `newKey` in one transaction, with both
   * tables locked against writes meanwhile. Rows already on the new key are skipped, so a
   * repeated run is harmless. A row on any third key stops the rotation with nothing changed:
   * finishing would invite the operator to throw away a key that row may still need.
   */
  async rotateCredentialsKey(actor: AuditActor, oldKey: Buffer, newKey: Buffer): Promise<CredentialsRotationResult> {
    const from = new CredentialsCipher(oldKey);
    const to = new CredentialsCipher(newKey);
    if (from.keyId === to.keyId) throw fail('same_key', undefined, { errors: { newKey: 'must differ from the current key' } });

    return this.knex.transaction(async (trx) => {
      const mailboxRows = await this.mailboxes.lockAllSecrets(trx);
      const accountRows = await this.accounts.lockAllSecrets(trx);
      const foreign = [...mailboxRows, ...accountRows].filter((row) => ![from.keyId, to.keyId].includes(storedKeyId(row.password_encrypted) ?? ''));
      if (foreign.length > 0) {
        const keyIds = [...new Set(foreign.map((row) => storedKeyId(row.password_encrypted) ?? 'unreadable'))].join(', ');
        throw new ConflictError(
          `${foreign.length} stored password(s) are encrypted with neither the current nor the new key (key id ${keyIds}); nothing was changed.`,
          'unknown_credentials_key',
        );
      }
      const rotate = async (rows: StoredSecret[], replace: (id: number, value: string, trx: Knex.Transaction) => Promise<void>) => {
        let count = 0;
        for (const row of rows) {
          if (storedKeyId(row.password_encrypted) === from.keyId) {
            await replace(row.id, to.encrypt(from.decrypt(row.password_encrypted)), trx);
            count += 1;
          }
        }
        return count;
      };
      const mailboxes = await rotate(mailboxRows, (id, value, t) => this.mailboxes.replaceSecret(id, value, t));
      const accounts = await rotate(accountRows, (id, value, t) => this.accounts.replaceSecret(id, value, t));
      const result = { fromKeyId: from.keyId, toKeyId: to.keyId, mailboxes, accounts, skipped: mailboxRows.length + accountRows.length - mailboxes - accounts };
      await this.audit.record(actor, { action: 'credentials.rotate', details: { ...result } }, trx);
      return result;
    });
  }

  private async requirePlatform(platformId: number, trx?: Knex.Transaction): Promise<void> {
    if (platformId > INTEGER_MAX || !(await this.catalog.platformExists(platformId, trx))) throw fail('platform_not_found');
  }
}

function toAccountView(account: PlatformAccountRow): PlatformAccountView {
  return {
    id: account.id,
    platformId: account.platform_id,
    email: account.login_email,
    slotsCount: account.slots_count,
    femail: account.forwarding_email,
    mailboxId: account.mailbox_id,
    health: account.health ?? 'ok',
  };
}
