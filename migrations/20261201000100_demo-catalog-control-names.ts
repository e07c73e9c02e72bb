// The demo catalog's texts named panel controls that do not exist (issue 14): its AI-chat
// platform said to press "Get login code" (Korean "로그인 코드 받기"), where the panel's button
// reads "Request Verification Code" ("인증 코드 요청"), and its Korean texts sent buyers to a
// "마이페이지" that no menu shows (the menu reads "내 구독"). demo-catalog.ts is fixed for new
// shops; this fixes shops seeded before. Only these exact phrases change, so a catalog that
// staff have rewritten is left as it is. The catalog triggers bump catalog_state.version, so
// every process reloads its catalog.
import type { Knex } from 'knex';

const FIXES: ReadonlyArray<{ languageId: 1 | 2; from: string; to: string }> = [
  { languageId: 1, from: '"Get login code"', to: '"Request Verification Code"' },
  { languageId: 2, from: '"로그인 코드 받기"를', to: '"인증 코드 요청"을' },
  { languageId: 2, from: '마이페이지', to: '내 구독 페이지' },
];

const COLUMNS: ReadonlyArray<{ table: string; column: string }> = [
  { table: 'platform_how_it_works', column: 'text' },
  { table: 'platform_faq', column: 'answer' },
  { table: 'platform_faq', column: 'question' },
  { table: 'platform_texts', column: 'description' },
];

export async function up(knex: Knex): Promise<void> {
  for (const { table, column } of COLUMNS) {
    for (const { languageId, from, to } of FIXES) {
      await knex.raw(`update ?? set ?? = replace(??, ?, ?) where language_id = ? and strpos(??, ?) > 0`, [
        table,
        column,
        column,
        from,
        to,
        languageId,
        column,
        from,
      ]);
    }
  }
}

export async function down(): Promise<void> {
  // Nothing to undo: putting the wrong names back would only break the texts again.
}
