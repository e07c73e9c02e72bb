/** English texts of the static pages. Every policy fact of spec section 1 is stated here and in ko.ts. */
import { DICTIONARY } from '../../language/dictionary/index.js';
import { PANEL_CONTROLS } from '../../panel/controls.js';
import type { ContentTexts } from './types.js';

// The menu entry and the panel's buttons these texts tell the buyer to use, by their labels.
const MENU = DICTIONARY[1]['nav.mySubscriptions'];
const { householdFetch, codeRequest } = PANEL_CONTROLS[1];

export const en: ContentTexts = {
  companyStatement: '{businessName} is a private limited company registered in the United Kingdom, represented by {representative}.',
  businessDetailsHeading: 'Business information',

  support: {
    intro: 'Questions about an order, a payment or your access? We answer in English and Korean.',
    contactHeading: 'Contact us',
    phoneLabel: 'Phone',
    emailLabel: 'E-mail',
    contactNote: 'Please add your order number when you write about an order: it lets us help you faster.',
    selfHelpHeading: 'Before you write',
    selfHelp: [
      'Paid orders are usually active at once, and always within {activationHours} hours; you get an e-mail as soon as yours is active.',
      `Your login e-mail, password and profile number are always in your panel under "${MENU}".`,
      'If the TV says your device is not part of the household, use the household guide in your panel: it fetches the verification link for you.',
      `For an AI-chat platform, press "${codeRequest}" in your panel to get the login code.`,
    ],
    faqLink: 'Read the frequently asked questions',
    howItWorksLink: 'See how subshare works',
  },

  faq: {
    intro: 'Short answers to the questions we hear most often.',
    items: [
      {
        question: 'What is a shared subscription?',
        answer:
          'We own and run premium accounts on streaming, music and AI-chat platforms and share them fairly: you pay a fraction of the full price and get your own profile (slot) on one of our accounts, for the months you choose.',
      },
      {
        question: 'How quickly is my subscription activated?',
        answer:
          'Most orders are active within minutes, and every paid order is activated within {activationHours} hours. We send you an e-mail once it is active, and the login details appear in your panel.',
      },
      {
        question: 'How can I pay?',
        answer:
          'By card, by crypto (more than 60 currencies such as BTC, ETH, USDT, SOL and TRX) or with a Korean method: KakaoPay, Samsung Pay, a Korean credit card or Korean internet banking. Prices are shown in EUR or KRW; switch the currency at the top of the page.',
      },
      {
        question: 'On how many devices can I watch or listen?',
        answer: 'Only one device may be logged in, and only one stream may play, at a time on your access.',
      },
      {
        question: 'May I change the account password or details?',
        answer:
          'No. The account is shared, so its password and information must stay as they are, and the other profiles belong to other members. You may rename your own profile, change its picture and set parental controls.',
      },
      {
        question: 'My TV says the device is not part of the household. What now?',
        answer: `On the TV, choose "I'm traveling" (or "Watch temporarily") and then "Send e-mail". Then press "${householdFetch}" in your panel and wait a moment: the link appears there, open it to continue watching.`,
      },
      {
        question: 'How does a family-group plan work?',
        answer:
          'After paying, enter the e-mail of your own platform login in your panel. It must be the e-mail you use to join the family group, otherwise you may be removed from the family membership. A member removed from a Premium family group cannot join again for 12 months.',
      },
      {
        question: 'What happens when my subscription ends?',
        answer:
          'Every subscription ends on a fixed date. We remind you before it, and after it the login stops working until you renew. Buying the same platform again extends your access.',
      },
      {
        question: 'Can I get a refund?',
        answer: 'Yes, if you ask within 24 hours of your purchase; a refund fee is deducted. The refund policy explains the details.',
      },
      {
        question: 'Who can buy on subshare?',
        answer: 'Adults over 18. Minors may use subshare only with the consent of a parent or legal guardian.',
      },
    ],
    moreHelp: 'Did not find your answer?',
    supportLink: 'Contact support',
  },

  howitworks: {
    intro: 'Premium subscriptions for a fraction of the price, in four steps.',
    steps: [
      { title: 'Choose', text: 'Pick a platform, a plan type and a duration of 1, 3, 6 or 12 months. The price per month is shown before you pay.' },
      { title: 'Pay', text: 'Pay by card, crypto or a Korean payment method, in EUR or KRW.' },
      {
        title: 'Get your access',
        text: `Right after payment (when no place is free yet, within {activationHours} hours) you receive the login details and your own profile number, by e-mail and in your panel under "${MENU}".`,
      },
      { title: 'Enjoy and renew', text: 'Use your own profile until the end date. We remind you before it ends, and renewing keeps your access going.' },
    ],
    sections: [
      {
        heading: 'The rules of a shared account',
        list: [
          'Only one device logged in and one stream at a time on your access.',
          'Do not change the account password or any account information.',
          'Use only your own profile: the other profiles belong to other members.',
          'You may rename your profile, change its picture and set parental controls.',
        ],
      },
      {
        heading: 'If the TV says you are not part of the household',
        list: [
          'On the TV, choose "I\'m traveling" or "Watch temporarily".',
          'Choose "Send e-mail" on the device.',
          `Press "${householdFetch}" in your panel and wait a moment.`,
          'Open the verification link that appears, and keep watching.',
        ],
      },
      {
        heading: 'AI-chat platforms',
        paragraphs: [`When the platform asks for a login code, press "${codeRequest}" in your panel: the code appears there as soon as it arrives.`],
      },
      {
        heading: 'Family-group platforms',
        paragraphs: [
          'Some platforms work with a family-group invitation. Enter the e-mail of your own platform login in your panel: it must be the one you use to join the family group, otherwise you may be removed from the family membership.',
        ],
      },
    ],
  },

  aboutus: {
    intro: 'subshare makes premium streaming, music and AI-chat subscriptions affordable by sharing them fairly.',
    sections: [
      {
        heading: 'What we do',
        paragraphs: [
          'A premium plan often has room for several profiles that one household never uses. We own and run such accounts, and each buyer gets a profile of their own for the months they choose, at a fraction of the full price.',
          'We take care of the accounts, their mailboxes and the verification links and login codes the platforms send, so you only have to press play.',
        ],
      },
      {
        heading: 'How we work',
        list: [
          'Clear prices in EUR or KRW, with the price per month shown before you pay.',
          'Most paid orders active at once, every one within {activationHours} hours, with an e-mail once it is active.',
          'Payment by card, crypto or Korean payment methods.',
          'Support in English and Korean, by phone at {phone} and by e-mail at {email}.',
        ],
      },
      {
        heading: 'Who we are',
        paragraphs: [
          '{businessName} is a private limited company registered in the United Kingdom, represented by {representative}. Our address is {address}.',
        ],
      },
    ],
  },

  termsandconditions: {
    intro:
      'These terms apply whenever you use subshare and buy a shared subscription from {businessName}. By creating an account or placing an order you accept them, so please read them carefully.',
    sections: [
      {
        heading: '1. Who we are',
        paragraphs: [
          'subshare is run by {businessName}, a private limited company registered in the United Kingdom and represented by {representative}, at {address}.',
          'You can reach us by e-mail at {email} or by phone at {phone}.',
        ],
      },
      {
        heading: '2. Who may use subshare',
        paragraphs: [
          'You must be an adult over 18 years of age. Minors may use subshare only with the consent of a parent or legal guardian, who accepts these terms for them and is responsible for their use.',
        ],
      },
      {
        heading: '3. What you buy',
        paragraphs: [
          'A shared subscription gives you access to a premium account that we own and manage, usually through a profile (slot) of your own. It is not a subscription in your own name with the platform.',
          'Each subscription runs for the duration you chose (1, 3, 6 or 12 months) and ends on a fixed date. After that date the login stops working until you renew.',
          'Most paid orders are active as soon as the payment is confirmed; we activate every paid order within {activationHours} hours and send you an e-mail once your subscription is active.',
        ],
      },
      {
        heading: '4. Using the shared account',
        list: [
          'Only one device may be logged in, and only one stream may play, at a time on your access.',
          'Do not change the password, the e-mail or any other information of the account.',
          'Use only your own profile: the other profiles belong to other members. You may rename your profile, change its picture and set parental controls.',
          'Do not share, lend or resell your access.',
        ],
      },
      {
        heading: '5. Family groups',
        paragraphs: [
          'Some platforms work with a family-group invitation. When asked, enter the e-mail of your own platform login: it must be the one you use to join the family group, otherwise you may be removed from the family membership.',
          'A member who is removed from a Premium family group cannot join it again for 12 months.',
        ],
      },
      {
        heading: '6. Prices and payment',
        paragraphs: [
          'Prices are shown in EUR or KRW. You pay the price shown on the payment page when you order, by card, crypto or a Korean payment method. An order counts as paid only once the payment provider has confirmed the payment.',
        ],
      },
      {
        heading: '7. Renewal and cancellation',
        paragraphs: [
          'You can cancel a subscription that is billed again at any time, but the cancellation must reach us at least 24 hours before the next billing; otherwise it applies from the period after.',
        ],
      },
      {
        heading: '8. Refunds',
        paragraphs: ['You can ask for a refund within 24 hours of your purchase; a refund fee is deducted. Our refund policy explains how.'],
      },
      {
        heading: '9. Suspension',
        paragraphs: [
          'If these terms are broken, for example when the account password is changed or the access is shared, we may suspend or end the access concerned without a refund.',
        ],
      },
      {
        heading: '10. Our liability',
        paragraphs: [
          'The platforms are run by third parties: we do our best to keep every account working, but we cannot guarantee their service. Our total liability to you for any claim is limited to 30 SGD or the fees you paid for the subscription concerned, whichever is higher.',
          'Nothing in these terms limits a liability that the law does not allow to be limited.',
        ],
      },
      {
        heading: '11. Changes',
        paragraphs: [
          'We may update these terms. The version on this page applies to orders placed from the day it is published. Questions about these terms: {email}.',
        ],
      },
    ],
  },

  privacypolicy: {
    intro: 'This policy explains which personal data {businessName} keeps when you use subshare, why we need it, and how long we keep it.',
    sections: [
      {
        heading: 'Who is responsible',
        paragraphs: [
          '{businessName}, a private limited company registered in the United Kingdom and represented by {representative}, {address}, is responsible for your data. Contact: {email}.',
        ],
      },
      {
        heading: 'What we keep',
        list: [
          'Your account: e-mail address, password (stored only as a secure hash, never readable), and the name and photo Google or Naver share when you log in with them.',
          'Your orders: what you bought, when, the amount, the currency and the payment method. Card and wallet details stay with the payment providers; we never see card numbers.',
          'Your subscriptions: the account and profile number you use, and the invitation e-mail of family-group plans.',
          'Messages you send to support.',
          'Technical data: your IP address (for security and to stop abuse) and your country (to suggest a language and a currency).',
        ],
      },
      {
        heading: 'Why we use it',
        list: [
          'To run your account, activate your subscriptions and show them in your panel.',
          'To send the e-mails the service needs: verification codes, activation, reminders before the end date.',
          'To prevent fraud and money laundering (see our AML policy) and to meet our legal and accounting duties.',
        ],
      },
      {
        heading: 'Cookies and browser storage',
        paragraphs: ['We use only what the shop needs to work, and no advertising or tracking cookies:'],
        list: [
          'Login: keeps you logged in for two days, or for two weeks when you choose "Remember me".',
          'Display: remembers your language and currency for one year.',
        ],
      },
      {
        heading: 'Who receives it',
        paragraphs: [
          'Only the services that help us deliver yours: the payment providers you choose, our e-mail delivery service, and Google or Naver when you log in with them. We never sell your data.',
        ],
      },
      {
        heading: 'How long we keep it',
        paragraphs: ['As long as your account exists, and afterwards only as long as the law requires (for example for accounting records).'],
      },
      {
        heading: 'Age',
        paragraphs: [
          "subshare is meant for adults over 18. Minors may use it only with the consent of a parent or legal guardian, who may ask us at any time to see or delete the minor's data.",
        ],
      },
      {
        heading: 'Your rights',
        paragraphs: [
          "You may ask to see, correct or delete your data, to receive a copy of it, or object to how we use it: write to {email}. You may also complain to the data protection authority, in the United Kingdom the Information Commissioner's Office.",
        ],
      },
      {
        heading: 'Security',
        paragraphs: [
          'Passwords are stored as secure hashes, stored account credentials are encrypted, and every page and call is served over an encrypted connection.',
        ],
      },
    ],
  },

  amlpolicy: {
    intro:
      '{businessName} does not accept money that comes from crime and does not let subshare be used to move it. This policy explains how we make sure of it.',
    sections: [
      {
        heading: 'Scope',
        paragraphs: ['It applies to every payment made on subshare, by card, crypto or a Korean payment method, and to every refund.'],
      },
      {
        heading: 'Knowing our customers',
        list: [
          'Every buyer has an account with a verified e-mail address.',
          'Buyers must be adults over 18, or minors with the consent of a parent or legal guardian.',
          'When an order or a pattern of orders looks unusual, we may ask for proof of identity or of the source of funds before we complete it.',
        ],
      },
      {
        heading: 'Payments',
        list: [
          'We take payments only through established payment providers, which run their own anti-money-laundering checks. We accept no cash.',
          'An order is completed only after the provider has confirmed the payment.',
          'Refunds go back only to the payment method that paid, never to another person or account.',
        ],
      },
      {
        heading: 'Monitoring',
        paragraphs: [
          'We watch for signs of misuse, such as many orders in a short time, repeated failed payments, stolen-card patterns or payments that do not fit the account.',
        ],
      },
      {
        heading: 'What we do about it',
        paragraphs: [
          'We may refuse or cancel an order, hold a refund, or close an account, and we report suspicious activity to the competent authorities where the law requires it. We keep the records the law asks us to keep, for as long as it asks.',
        ],
      },
      {
        heading: 'Responsible person',
        paragraphs: ['{representative} is responsible for this policy. Contact: {email}.'],
      },
    ],
  },

  copyrightpolicy: {
    intro:
      'We respect the rights of creators. The films, series, music and other content on the platforms belong to those platforms and their licensors, and platform names and logos belong to their owners.',
    sections: [
      {
        heading: 'Reporting an infringement',
        paragraphs: ['If you believe that material on subshare infringes your copyright, send a notice to {email} that contains:'],
        list: [
          'the work you believe is infringed;',
          'the material you want removed, and where it is on subshare;',
          'your name, address, telephone number and e-mail address;',
          'a statement that you believe in good faith that the use is not authorised by the owner, its agent or the law;',
          'a statement that the notice is accurate and that you are the owner or allowed to act for the owner;',
          'your physical or electronic signature.',
        ],
      },
      {
        heading: 'What we do',
        paragraphs: ['We remove or disable access to the material reported in a complete notice, and inform the person who made it available.'],
      },
      {
        heading: 'Counter-notice',
        paragraphs: [
          'If your material was removed and you believe this was a mistake or a misidentification, you may send us a counter-notice to {email} with your contact details, the material removed and where it was, and a statement, under penalty of perjury, that you believe in good faith it was removed by mistake.',
          'We forward the counter-notice to the person who reported the material. Unless they tell us that they have started court proceedings, we restore the material within 10 to 14 business days after receiving the counter-notice.',
        ],
      },
      {
        heading: 'Repeat infringers',
        paragraphs: ['We close the accounts of users who infringe copyright repeatedly.'],
      },
    ],
  },

  refundpolicy: {
    intro: 'We want you to be happy with your subscription. This is how refunds and cancellations work.',
    sections: [
      {
        heading: 'Refunds within 24 hours',
        paragraphs: [
          'You can ask for a refund within 24 hours of your purchase. We refund the price you paid minus a refund fee, which covers the costs of the payment provider. After 24 hours a purchase is no longer refunded.',
        ],
      },
      {
        heading: 'Cancellation',
        paragraphs: [
          'A subscription that is billed again must be cancelled at least 24 hours before the next billing; a later cancellation applies from the period after.',
        ],
      },
      {
        heading: 'How to ask',
        paragraphs: [
          'Write to {email} or call {phone} with your order number. The refund goes back to the payment method you paid with; how long it takes to reach you depends on the payment provider.',
        ],
      },
    ],
  },
};
