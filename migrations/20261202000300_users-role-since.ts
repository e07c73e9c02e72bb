// Staff roles (issue 15): the staff page lists moderators and admins with the time each got the
// role. `role_changed_at` is set by every role change (IdentityService.setRole, createAdmin);
// null means the role is the one the user was created with, so `created_at` is the answer.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('role_changed_at', { useTz: true });
  });
  // The staff page reads staff only: a partial index keeps that a small scan however many buyers.
  await knex.raw('create index users_staff_idx on users (role) where role > 0');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists users_staff_idx');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('role_changed_at');
  });
}
