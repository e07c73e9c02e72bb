import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createKnex, migrateLatest, MIGRATIONS_DIR, seedDemoCatalog, type Knex } from '@subshare/core';
import { DEMO_PLATFORMS } from '../../packages/core/src/modules/catalog/demo-catalog.js';
import { harness } from '../support/harness.js';

const MIGRATION = '20261201000100_demo-catalog-control-names.ts';

/** The demo catalog as it was seeded before issue 14: these phrases in place of the real names. */
const OLD_PHRASES: ReadonlyArray<{ languageId: 1 | 2; now: string; before: string }> = [
  { languageId: 1, now: '"Request Verification Code"', before: '"Get login code"' },
  { languageId: 2, now: '"인증 코드 요청"을', before: '"로그인 코드 받기"를' },
  { languageId: 2, now: '내 구독 페이지', before: '마이페이지' },
];

/**
 * A shop seeded before the demo catalog named the panel's real buttons: the migration puts the
 * real names into its texts, and leaves a text that staff wrote themselves alone.
 */
describe('migration: the demo catalog names the panel controls that exist', () => {
  let knex: Knex;
  let earlier: string;

  before(async () => {
    knex = createKnex(await harness().db.createDatabase('subshare_control_names'));
    earlier = mkdtempSync(path.join(os.tmpdir(), 'subshare-migrations-'));
    for (const file of readdirSync(MIGRATIONS_DIR).filter((name) => name.endsWith('.ts') && name < MIGRATION))
      copyFileSync(path.join(MIGRATIONS_DIR, file), path.join(earlier, file));
    await migrateLatest(knex, earlier);
    await seedDemoCatalog(knex);
    for (const { languageId, now, before } of OLD_PHRASES) {
      for (const [table, column] of [
        ['platform_how_it_works', 'text'],
        ['platform_faq', 'answer'],
      ]) {
        await knex.raw(`update ?? set ?? = replace(??, ?, ?) where language_id = ?`, [table, column, column, now, before, languageId]);
      }
    }
  });
  after(async () => {
    await knex.destroy();
    rmSync(earlier, { recursive: true, force: true });
  });

  const howItWorks = async (platformId: number, languageId: number) =>
    (await knex('platform_how_it_works').where({ platform_id: platformId, language_id: languageId }).orderBy('position')).map((row) => row.text as string);
  const answers = async (platformId: number, languageId: number) =>
    (await knex('platform_faq').where({ platform_id: platformId, language_id: languageId }).orderBy('position')).map((row) => row.answer as string);

  it('replaces the old names with the labels of the panel, and bumps the catalog version', async () => {
    const aiChat = DEMO_PLATFORMS.find((platform) => platform.category === 8)!;
    expect((await howItWorks(aiChat.id, 1)).join('\n')).to.contain('"Get login code"');
    expect((await howItWorks(aiChat.id, 2)).join('\n')).to.contain('마이페이지');
    // A text staff wrote themselves, without the quoted phrase: not the demo's, left alone.
    await knex('platform_how_it_works').where({ platform_id: aiChat.id, language_id: 1, position: 0 }).update({ text: 'Ask us for a login code by e-mail.' });
    const versionBefore = Number((await knex('catalog_state').first()).version);

    await migrateLatest(knex);

    expect(Number((await knex('catalog_state').first()).version)).to.be.above(versionBefore);
    for (const platform of DEMO_PLATFORMS) {
      const en = await howItWorks(platform.id, 1);
      expect(en.slice(platform.id === aiChat.id ? 1 : 0), platform.texts.en.name).to.deep.equal(
        platform.howItWorks.en.slice(platform.id === aiChat.id ? 1 : 0),
      );
      expect(await howItWorks(platform.id, 2), platform.texts.en.name).to.deep.equal(platform.howItWorks.ko);
      expect(await answers(platform.id, 1)).to.deep.equal(platform.faq.en.map((entry) => entry.answer));
      expect(await answers(platform.id, 2)).to.deep.equal(platform.faq.ko.map((entry) => entry.answer));
    }
    expect((await howItWorks(aiChat.id, 1))[0]).to.equal('Ask us for a login code by e-mail.');
    expect((await howItWorks(aiChat.id, 1)).join('\n')).to.contain('press "Request Verification Code" in your panel');
  });
});
