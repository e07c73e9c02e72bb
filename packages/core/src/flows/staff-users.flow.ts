/**
 * The admin area's users list (GET /api/user/getusers, getusersbyemail): users as identity
 * keeps them, each with `subscribersCount`, how many subscriptions they hold right now (the
 * subscriptions module counts them the way the panel lists them: active and not past the end).
 */
import { inject, injectable } from 'inversify';
import { IdentityService, type UserSummary } from '../modules/identity/index.js';
import { SubscriptionsService } from '../modules/subscriptions/index.js';
import type { UsersByEmailQuery, UsersQuery } from '../wire/staff.js';

export interface StaffUserView extends UserSummary {
  subscribersCount: number;
}

export interface StaffUsersPage {
  items: StaffUserView[];
  count: number;
  pages: number;
  page: number;
  limit: number;
}

@injectable()
export class StaffUsersFlow {
  constructor(
    @inject(IdentityService) private readonly identity: IdentityService,
    @inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService,
  ) {}

  /** `{ page = 1, limit = 20 }`: one page of users, newest first. */
  async list(input: UsersQuery): Promise<StaffUsersPage> {
    const page = await this.identity.listUsers(input);
    return { ...page, items: await this.withCounts(page.items) };
  }

  /** `{ email }`: users whose e-mail contains the text (any case, literally), newest first, at most 100. */
  async searchByEmail(input: UsersByEmailQuery): Promise<StaffUserView[]> {
    return this.withCounts(await this.identity.searchUsersByEmail(input));
  }

  private async withCounts(users: UserSummary[]): Promise<StaffUserView[]> {
    const counts = await this.subscriptions.activeCountsOfUsers(users.map((user) => user.id));
    return users.map((user) => ({ ...user, subscribersCount: counts.get(user.id) ?? 0 }));
  }
}
