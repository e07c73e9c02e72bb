import { expect } from 'chai';
import { DEMO_PLATFORMS } from '../../packages/core/src/modules/catalog/demo-catalog.js';
import { CONTENT_TEXTS } from '../../packages/web/src/features/content/texts/index.js';
import { DICTIONARY } from '../../packages/web/src/features/language/dictionary/index.js';
import { PANEL_CONTROLS } from '../../packages/web/src/features/panel/controls.js';
import { PANEL_TEXTS } from '../../packages/web/src/features/panel/texts.js';

/**
 * Texts that tell a buyer to press a button, open a menu or choose an option name it as the
 * interface labels it (issue 14: an AI-chat platform's how-it-works said "Get login code" while
 * the button reads "Request Verification Code"). Every such name in the static pages, the
 * shell's and the panel's tables and the demo catalog (platform how-it-works points, FAQ) must be a
 * label of the interface in the same language, or a control on the viewer's device (the TV's
 * "I'm traveling"), which is not ours to name.
 */
type Language = 'en' | 'ko';
const LANGUAGE_ID = { en: 1, ko: 2 } as const;

/** Labels on a TV or a platform's own screens, which our texts quote but do not define. */
const ON_THE_DEVICE: Record<Language, string[]> = {
  en: ["I'm traveling", 'Watch temporarily', 'Send e-mail', 'Send email'],
  ko: ['여행 중입니다', '임시로 시청', '이메일 보내기'],
};

/** Every label our interface shows in a language, and each one without a trailing "(…)" note. */
function labels(language: Language): Set<string> {
  const id = LANGUAGE_ID[language];
  const all = [DICTIONARY, PANEL_TEXTS].flatMap((table) => Object.values(table[id]) as string[]);
  return new Set(all.flatMap((label) => [label, label.replace(/\s*\([^)]*\)$/, '')]));
}

/** The names a text tells the reader to use: quoted after press/click/choose…, or before 를 누르세요… */
function namedControls(text: string, language: Language): string[] {
  const patterns =
    language === 'en'
      ? [
          // press "X", click 'X', choose "X" (or "Y"), under "X": the closing quote ends a word.
          /\b(?:press|click|tap|choose|select|open|use|under)\s+(?:the\s+)?"([^"]+)"/gi,
          /\b(?:press|click|tap|choose|select|open|use|under)\s+(?:the\s+)?'(.+?)'(?=[\s.,;:)(]|$)/gi,
          /\(or\s+["']([^"']+)["']\)/gi,
        ]
      : [
          // "X"를 누르세요, 'X'을 선택하세요, "X"(또는 "Y")를 선택…, "X" 페이지
          /["'“‘]([^"'”’]+)["'”’]\s*(?:\([^)]*\))?\s*(?:을|를)\s*(?:누르|선택|클릭)/g,
          /\(또는\s*["']([^"']+)["']\)/g,
          /["“]([^"”]+)["”]\s*페이지/g,
        ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]));
}

/** Every string inside a value (objects and arrays walked). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** The texts to check, by where they live, in one language. */
function textsOf(language: Language): Array<{ where: string; text: string }> {
  const id = LANGUAGE_ID[language];
  const tables = { dictionary: DICTIONARY, panel: PANEL_TEXTS };
  return [
    ...strings(CONTENT_TEXTS[id]).map((text) => ({ where: 'static pages (features/content/texts)', text })),
    ...Object.entries(tables).flatMap(([name, table]) => (Object.values(table[id]) as string[]).map((text) => ({ where: `${name} texts`, text }))),
    ...DEMO_PLATFORMS.flatMap((platform) =>
      [...platform.howItWorks[language], ...strings(platform.faq[language]), platform.texts[language].description].map((text) => ({
        where: `demo catalog, ${platform.texts.en.name}`,
        text,
      })),
    ),
  ];
}

describe('web: texts name the buttons and menus that exist', () => {
  for (const language of ['en', 'ko'] as const) {
    it(`${language}: every button, link or menu a text names is a label of the interface`, () => {
      const real = labels(language);
      const named = textsOf(language).flatMap(({ where, text }) => namedControls(text, language).map((name) => ({ where, name, text })));
      const wrong = named.filter(({ name }) => !real.has(name) && !ON_THE_DEVICE[language].includes(name));
      expect(wrong.map(({ where, name }) => `${where}: "${name}"`)).to.deep.equal([]);

      // The checker sees what it must: the panel's buttons as the static pages and the demo catalog name them.
      const id = LANGUAGE_ID[language];
      const names = new Set(named.map(({ name }) => name));
      for (const label of Object.values(PANEL_CONTROLS[id])) expect(names, label).to.include(label);
      expect(names).to.include(DICTIONARY[id]['nav.mySubscriptions']);
      const fromCatalog = named.filter(({ where }) => where.startsWith('demo catalog')).map(({ name }) => name);
      expect(fromCatalog).to.include.members(Object.values(PANEL_CONTROLS[id]));
    });
  }

  it('ko: the panel is called by its menu entry, never "마이페이지", which the interface has not', () => {
    expect(DICTIONARY[2]['nav.mySubscriptions']).to.equal('내 구독');
    const stray = textsOf('ko').filter(({ text }) => text.includes('마이페이지'));
    expect(stray.map(({ where, text }) => `${where}: ${text}`)).to.deep.equal([]);
  });

  it('the panel shows its buttons with the labels the other texts name', () => {
    for (const id of [1, 2] as const) {
      expect(PANEL_TEXTS[id]['panel.householdFetch']).to.equal(PANEL_CONTROLS[id].householdFetch);
      expect(PANEL_TEXTS[id]['panel.codeRequest']).to.equal(PANEL_CONTROLS[id].codeRequest);
      expect(PANEL_TEXTS[id]['panel.householdStep3']).to.contain(PANEL_CONTROLS[id].householdFetch);
    }
  });
});
