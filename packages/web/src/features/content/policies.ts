import { PAGES, type PageDeclaration } from '@subshare/core/pages';
import type { DictionaryKey } from '../language/dictionary/index.js';
import type { ContentDocumentKey } from './texts/types.js';

export interface PolicyPage {
  /** The page: its route and links (`@subshare/core/pages`). */
  page: PageDeclaration;
  /** The key of its texts (texts/*.ts), the spec's page name: its route without the '/' (test/unit/page-paths.test.ts). */
  key: ContentDocumentKey;
  title: DictionaryKey;
}

/** About us and the policy pages of spec section 2, in footer order. Only routes and titles: the texts load with the pages. */
export const POLICY_PAGES: readonly PolicyPage[] = [
  { page: PAGES.termsAndConditions, key: 'termsandconditions', title: 'page.termsandconditions' },
  { page: PAGES.privacyPolicy, key: 'privacypolicy', title: 'page.privacypolicy' },
  { page: PAGES.aboutUs, key: 'aboutus', title: 'page.aboutus' },
  { page: PAGES.amlPolicy, key: 'amlpolicy', title: 'page.amlpolicy' },
  { page: PAGES.copyrightPolicy, key: 'copyrightpolicy', title: 'page.copyrightpolicy' },
  { page: PAGES.refundPolicy, key: 'refundpolicy', title: 'page.refundpolicy' },
];
