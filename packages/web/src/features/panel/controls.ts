/**
 * The names of the panel's controls that other texts tell the buyer to press: the household
 * guide's step, the static pages (support, FAQ, how it works). Defined once, here: the buttons
 * and those texts read them from this table, so a text cannot name a button that no longer
 * exists. The catalog's own texts (platform how-it-works points and FAQ, staff data) name them
 * too; test/unit/web-control-names.test.ts holds every such name to the real labels.
 * Pure data (relative imports carry `.js`): the static pages' texts import it.
 */
import { defineTexts, type TextTable } from '../language/texts.js';

const en = {
  /** Video platforms: the household guide's button that fetches the verification link. */
  householdFetch: 'Get verification link',
  /** AI-chat platforms: the button that fetches the login code. */
  codeRequest: 'Request Verification Code',
} as const;

export type PanelControl = keyof typeof en;

const ko: TextTable<PanelControl> = {
  householdFetch: '인증 링크 받기',
  codeRequest: '인증 코드 요청',
};

export const PANEL_CONTROLS = defineTexts<PanelControl>(en, ko);
