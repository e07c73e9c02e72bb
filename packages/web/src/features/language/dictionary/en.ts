/** English interface texts. Every key here must exist in ko.ts (the type checker enforces it). */
export const en = {
  'app.name': 'subshare',
  'app.loading': 'Loading…',
  'common.close': 'Close',
  'common.backHome': 'Back to home',

  'nav.main': 'Main',
  'nav.home': 'subshare home',
  'nav.howItWorks': 'How it works',
  'nav.login': 'Login / Register',
  'nav.mySubscriptions': 'My subscriptions',
  'nav.logout': 'Log out',
  'nav.menu': 'Menu',
  'nav.profilePicture': 'Your profile picture',

  'language.title': 'Choose your language',
  'language.toggle': 'Change language, current: {name}',

  'home.slogan': 'Premium subscriptions, shared fairly',
  'home.subslogan': 'Your own profile on streaming, music and AI-chat platforms for a fraction of the full price.',
  'home.promise': 'Activated within 24 hours · Pay by card, crypto or Korean methods · Renew in one click',
  'home.platforms': 'Choose your platform',
  'home.carousel': 'Platforms on subshare',
  'home.empty': 'No platforms are available right now. Please come back a little later.',

  'card.perMonth': '/month',
  'card.seeDetails': 'See details',
  'card.purchaseNow': 'Purchase now',

  'footer.navigation': 'Footer',
  'footer.business': 'Business information',
  'footer.businessName': 'Business name',
  'footer.registrationNumber': 'Business registration number',
  'footer.mailOrderNumber': 'Mail-order business report number',
  'footer.address': 'Address',
  'footer.representative': 'Representative',
  'footer.phone': 'Phone',
  'footer.email': 'E-mail',
  'footer.copyright': '© {year} {name}. All rights reserved.',

  'page.support': 'Support',
  'page.howitworks': 'How it works',
  'page.termsandconditions': 'Terms and conditions',
  'page.privacypolicy': 'Privacy policy',
  'page.aboutus': 'About us',
  'page.amlpolicy': 'AML policy',
  'page.copyrightpolicy': 'Copyright policy',
  'page.refundpolicy': 'Refund policy',

  'support.intro': 'We are here to help with orders, payments and access to your subscription.',

  'howItWorks.step1': 'Choose a platform, a plan type and a duration of 1, 3, 6 or 12 months.',
  'howItWorks.step2': 'Pay by card, crypto or a Korean payment method.',
  'howItWorks.step3': 'Within 24 hours you get the account credentials and your own profile number by e-mail and in your panel.',
  'howItWorks.step4': 'Do not change the account password or details; other profiles belong to other members.',
  'howItWorks.step5': 'Before the end date we remind you; renewing keeps your profile.',

  'policy.termsandconditions': 'The rules for using subshare, buying shared subscriptions and keeping access.',
  'policy.privacypolicy': 'Which personal data we keep, why, and for how long.',
  'policy.aboutus': 'Who runs subshare and how to reach us.',
  'policy.amlpolicy': 'How we prevent money laundering and misuse of payments.',
  'policy.copyrightpolicy': 'How to report content and how counter-notices are handled.',
  'policy.refundpolicy': 'Refunds are possible within 24 hours of purchase, minus a refund fee.',

  'notFound.title': 'Page not found',
  'notFound.text': 'The page you are looking for does not exist or has moved.',

  'platform.title': 'Platform',
  'platform.preparing': 'The details of this platform are loading.',

  'payment.title': 'Order and payment',
  'payment.preparing': 'Your order is being prepared.',
  'payment.success': 'Payment Successful',
  'payment.successText': 'Your Payment has been completed.',
  'payment.goToSubscriptions': 'GO TO YOUR SUBSCRIBE',
  'payment.failed': 'Payment Failed',
  'payment.tryLater': 'Try again later',
  'payment.home': 'HOME',
  'payment.checking': 'Checking your payment…',

  'login.title': 'Log in or create an account',
  'login.preparing': 'Enter your e-mail to continue.',
  'register.title': 'Create an account',
  'naver.loggingIn': 'Logging in with Naver...',

  'panel.title': 'My subscriptions',
  'panel.preparing': 'Your subscriptions are loading.',

  'admin.title': 'Administration',
  'admin.orders': 'ORDERS',
  'admin.ordersCompleted': 'Completed',
  'admin.ordersNotCompleted': 'Not Completed (No Subscriptions)',
  'admin.subscriptions': 'SUBSCRIPTIONS',
  'admin.createSubscription': 'Create',
  'admin.users': 'USERS',
  'admin.usersList': 'List',
  'admin.welcome': 'Choose a section from the menu.',
  'admin.ordersTitle': 'Orders in state {state}',
  'admin.createSubscriptionTitle': 'Create subscription',
  'admin.usersTitle': 'Users',
  'admin.userTitle': 'User {id}',
} as const;

export type DictionaryKey = keyof typeof en;
export type Dictionary = Record<DictionaryKey, string>;
