import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import { SocialIdentityModel } from './models/session.model.js';

@injectable()
export class SocialIdentityRepository {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  async find(provider: SocialIdentityModel['provider'], providerUserId: string, trx?: Knex.Transaction): Promise<SocialIdentityModel | undefined> {
    return SocialIdentityModel.query(trx ?? this.knex).findOne({ provider, provider_user_id: providerUserId });
  }

  async link(
    identity: { userId: number; provider: SocialIdentityModel['provider']; providerUserId: string; email: string | null },
    trx: Knex.Transaction,
  ): Promise<void> {
    await trx('social_identities')
      .insert({ user_id: identity.userId, provider: identity.provider, provider_user_id: identity.providerUserId, email: identity.email })
      .onConflict(['provider', 'provider_user_id'])
      .ignore();
  }
}
