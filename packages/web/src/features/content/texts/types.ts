/**
 * The static pages' texts (support, FAQ, how it works, about us and the policies), one object
 * per language. Pure data, no React: the server may import these files to pre-render the
 * pages (relative imports carry `.js`).
 *
 * Placeholders, filled from the business details (`GET /api/main/business`): {businessName},
 * {representative}, {address}, {registrationNumber}, {mailOrderNumber}, {phone}, {email}.
 * A paragraph or list item whose placeholder has no value is left out.
 */

export interface ContentSection {
  heading: string;
  paragraphs?: string[];
  /** A bulleted list after the paragraphs. */
  list?: string[];
}

export interface ContentDocument {
  intro: string;
  sections: ContentSection[];
}

export interface ContentFaqItem {
  question: string;
  answer: string;
}

export interface ContentTexts {
  /** "Who we are" statement (a UK limited company with a representative). */
  companyStatement: string;
  businessDetailsHeading: string;
  support: {
    intro: string;
    contactHeading: string;
    phoneLabel: string;
    emailLabel: string;
    contactNote: string;
    selfHelpHeading: string;
    selfHelp: string[];
    faqLink: string;
    howItWorksLink: string;
  };
  faq: { intro: string; items: ContentFaqItem[]; moreHelp: string; supportLink: string };
  howitworks: { intro: string; steps: Array<{ title: string; text: string }>; sections: ContentSection[] };
  aboutus: ContentDocument;
  termsandconditions: ContentDocument;
  privacypolicy: ContentDocument;
  amlpolicy: ContentDocument;
  copyrightpolicy: ContentDocument;
  refundpolicy: ContentDocument;
}

/** The pages written as a ContentDocument; their routes are their keys. */
export type ContentDocumentKey = 'aboutus' | 'termsandconditions' | 'privacypolicy' | 'amlpolicy' | 'copyrightpolicy' | 'refundpolicy';
