import type { DictionaryKey } from '../language/dictionary';

export interface PolicyPage {
  /** The route, also the spec's page name. */
  path: string;
  title: DictionaryKey;
  summary: DictionaryKey;
}

/** The policy pages of spec section 2, in footer order. */
export const POLICY_PAGES: readonly PolicyPage[] = [
  { path: 'termsandconditions', title: 'page.termsandconditions', summary: 'policy.termsandconditions' },
  { path: 'privacypolicy', title: 'page.privacypolicy', summary: 'policy.privacypolicy' },
  { path: 'aboutus', title: 'page.aboutus', summary: 'policy.aboutus' },
  { path: 'amlpolicy', title: 'page.amlpolicy', summary: 'policy.amlpolicy' },
  { path: 'copyrightpolicy', title: 'page.copyrightpolicy', summary: 'policy.copyrightpolicy' },
  { path: 'refundpolicy', title: 'page.refundpolicy', summary: 'policy.refundpolicy' },
];
