import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import { MailboxModel } from './models/mailbox.model.js';

export interface StoredSecret {
  id: number;
  password_encrypted: string;
}

@injectable()
export class MailboxRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** Inserts the mailbox unless its address is taken (then undefined, and the transaction stays usable). */
  async insertIfNew(mailbox: { platform_id: number | null; email: string; password_encrypted: string; created_at: Date }, trx: Knex.Transaction) {
    const [row] = await trx('mailboxes').insert(mailbox).onConflict('email').ignore().returning<MailboxModel[]>('*');
    return row as MailboxModel | undefined;
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<MailboxModel | undefined> {
    return MailboxModel.query(trx ?? this.knex).findById(id);
  }

  async findByEmail(email: string, trx?: Knex.Transaction): Promise<MailboxModel | undefined> {
    return MailboxModel.query(trx ?? this.knex).findOne({ email: email.toLowerCase() });
  }

  /** The platform's mailboxes and the unassigned ones, oldest first. */
  async listForPlatform(platformId: number, trx?: Knex.Transaction): Promise<MailboxModel[]> {
    return MailboxModel.query(trx ?? this.knex)
      .where((q) => q.where('platform_id', platformId).orWhereNull('platform_id'))
      .orderBy('id');
  }

  /** Gives an unassigned mailbox to a platform; a mailbox already assigned keeps its platform. */
  async assignIfUnassigned(id: number, platformId: number, trx: Knex.Transaction): Promise<void> {
    await MailboxModel.query(trx).patch({ platform_id: platformId }).where({ id }).whereNull('platform_id');
  }

  /** Every stored password, the rows locked until the transaction ends (key rotation). */
  async lockAllSecrets(trx: Knex.Transaction): Promise<StoredSecret[]> {
    await trx.raw('lock table mailboxes in exclusive mode');
    return MailboxModel.query(trx).select('id', 'password_encrypted').orderBy('id');
  }

  async replaceSecret(id: number, passwordEncrypted: string, trx: Knex.Transaction): Promise<void> {
    await MailboxModel.query(trx).findById(id).patch({ password_encrypted: passwordEncrypted });
  }
}
