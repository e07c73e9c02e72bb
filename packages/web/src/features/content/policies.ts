import type { DictionaryKey } from '../language/dictionary';
import type { ContentDocumentKey } from './texts/types.js';

export interface PolicyPage {
  /** The route, also the spec's page name and the key of its texts (texts/*.ts). */
  path: ContentDocumentKey;
  title: DictionaryKey;
}

/** About us and the policy pages of spec section 2, in footer order. Only routes and titles: the texts load with the pages. */
export const POLICY_PAGES: readonly PolicyPage[] = [
  { path: 'termsandconditions', title: 'page.termsandconditions' },
  { path: 'privacypolicy', title: 'page.privacypolicy' },
  { path: 'aboutus', title: 'page.aboutus' },
  { path: 'amlpolicy', title: 'page.amlpolicy' },
  { path: 'copyrightpolicy', title: 'page.copyrightpolicy' },
  { path: 'refundpolicy', title: 'page.refundpolicy' },
];
