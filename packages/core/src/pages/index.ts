/**
 * The web app's pages (spec section 2, and the admin pages added since), each declared once as
 * the calls are in wire/calls/: its route pattern, a builder for links to it, what robots may do
 * with it, who renders it and a one-line purpose. The web router (web/src/app/routes.tsx and the
 * admin area's routes) takes its paths from here; the server builds every link it sends (payment
 * return URLs, redirects, e-mails, renewal link pages) with `pagePath`; robots.txt and
 * sitemap.xml are derived from `robots` and `sitemap` (http/src/seo/sitemap.ts).
 *
 * Pure data and pure functions with no imports: the browser's first download carries this file
 * (`@subshare/core/pages`). Code that writes one of these paths by hand fails
 * test/unit/page-paths.test.ts. docs/architecture.md ("Pages") lists them.
 */

/** What search engines may do with a page. */
export type PageRobots =
  /** In search results (and, when `sitemap` says so, in sitemap.xml). */
  | 'index'
  /** Crawled but kept out of results by `<meta name="robots" content="noindex">` (login, register). */
  | 'noindex'
  /** Nobody's search result and not worth a crawl: robots.txt disallows its path. */
  | 'disallow';

/**
 * Who renders a page's markup: the server (React on the server, with the data a search engine
 * needs: http/src/seo/storefront.ts) or the browser (the server sends the frame and a
 * `<noscript>` notice; the page depends on who is looking).
 */
export type PageRendering = 'server' | 'browser';

/** Which entries a page adds to sitemap.xml: none, itself, or one per platform of the catalog. */
export type PageSitemap = 'none' | 'page' | 'each platform';

export interface PageDeclaration<Path extends string = string, Args extends unknown[] = never[]> {
  /** The route pattern in React Router's syntax, from the site's root: '/platform/:id'. */
  readonly path: Path;
  /** A link to the page (path and query, no origin). */
  // A method, so a declaration with parameters is still a PageDeclaration (parameters bivariant).
  to(...args: Args): string;
  readonly robots: PageRobots;
  readonly rendering: PageRendering;
  readonly sitemap: PageSitemap;
  /** One line: what the page is for. */
  readonly purpose: string;
}

function page<const Path extends string, Args extends unknown[]>(declaration: PageDeclaration<Path, Args>): PageDeclaration<Path, Args> {
  return declaration;
}

/** A page with no parameters: the link is the path. */
function fixed<const Path extends string>(path: Path, rest: Omit<PageDeclaration<Path, []>, 'path' | 'to'>): PageDeclaration<Path, []> {
  return { path, to: () => path, ...rest };
}

/** `?name=value&…` of the given entries, or '' when none has a value. */
function query(entries: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(entries)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The static pages of one chunk (support, FAQ, how it works, about us, policies): server-rendered and indexed. */
const content = { robots: 'index', rendering: 'server', sitemap: 'page' } as const;
/** The admin area: staff only, rendered by the browser, never crawled. */
const admin = { robots: 'disallow', rendering: 'browser', sitemap: 'none' } as const;

/** The query of /login that carries the return URL when a visitor is sent there. */
export const RETURN_URL_PARAM = 'returnUrl';

/**
 * The query of /user/{id} when Stripe sends the buyer back from saving a card: the subscription
 * and Stripe's Checkout Session (`{CHECKOUT_SESSION_ID}` is Stripe's placeholder, left as is).
 * The server writes it (renewal-switch.flow.ts), the panel reads it (web features/panel).
 */
export const CARD_RETURN_PARAMS = { subscription: 'cardSaved', session: 'cardSession' } as const;

/**
 * The platform page's form fields (core/src/storefront), also the query of /platform/{id} (the
 * server renders the prices of that choice) and of /payment (the order is for that choice).
 */
export const CHOICE_FIELDS = { platform: 'platform', type: 'type', duration: 'duration' } as const;

/**
 * The query of / that carries a buyer's referral code (`/?ref=CODE`, the panel's "Invite friends"
 * link): the storefront keeps it until the visitor signs up (web features/referral).
 */
export const REFERRAL_PARAM = 'ref';

/**
 * The query of /platform/{id} and /payment that carries a promotion code (issue 37): a link
 * `/platform/3?code=LAUNCH` passes it through the platform page's choice form (and /checkout, and
 * /login's return URL) to /payment, which orders with it. The server decides whether it applies.
 */
export const PROMO_CODE_PARAM = 'code';

/** A choice of platform, type and duration: the query of /platform/{id} and /payment. */
export interface PageChoice {
  platformId: number;
  typeId: number;
  durationId: number;
}

export const PAGES = {
  home: page({
    path: '/',
    to: (referralCode?: string) => `/${query({ [REFERRAL_PARAM]: referralCode })}`,
    ...content,
    purpose: "Home: the platforms with their lowest monthly prices; `?ref=` keeps a friend's code until sign-up.",
  }),
  platform: page({
    path: '/platform/:id',
    to: (platformId: number | string, promoCode?: string) => `/platform/${platformId}${query({ [PROMO_CODE_PARAM]: promoCode })}`,
    robots: 'index',
    rendering: 'server',
    sitemap: 'each platform',
    purpose: 'One platform: its options, prices and FAQ, and the choice form to /payment (with ?code=, a promo code).',
  }),
  payment: page({
    path: '/payment',
    to: (choice?: PageChoice, promoCode?: string) =>
      `/payment${query({
        [CHOICE_FIELDS.platform]: choice?.platformId,
        [CHOICE_FIELDS.type]: choice?.typeId,
        [CHOICE_FIELDS.duration]: choice?.durationId,
        [PROMO_CODE_PARAM]: promoCode,
      })}`,
    robots: 'disallow',
    rendering: 'browser',
    sitemap: 'none',
    purpose: 'Checkout (verified buyers): creates the order and sends the buyer to the chosen payment method.',
  }),
  paymentResult: page({
    path: '/paymentresult/:id/:success',
    to: (orderId: number | string, success: boolean | 0 | 1) => `/paymentresult/${orderId}/${success ? 1 : 0}`,
    robots: 'disallow',
    rendering: 'browser',
    sitemap: 'none',
    purpose: 'Where a payment provider sends the buyer back: paid (1) or not (0), for one order.',
  }),
  payssionResult: fixed('/payssionpaymentresult', {
    robots: 'disallow',
    rendering: 'browser',
    sitemap: 'none',
    purpose: "Payssion's return page (it appends transaction_id and order_id): checks the payment and shows the result.",
  }),
  login: page({
    path: '/login',
    to: (returnUrl?: string) => `/login${query({ [RETURN_URL_PARAM]: returnUrl })}`,
    robots: 'noindex',
    rendering: 'browser',
    sitemap: 'none',
    purpose: 'Log in (e-mail and password, Google or Naver) or register; goes on to the return URL once verified.',
  }),
  register: fixed('/register', {
    robots: 'noindex',
    rendering: 'browser',
    sitemap: 'none',
    purpose: 'The registration form (the spec keeps it, unused: /login registers).',
  }),
  naverCallback: fixed('/naver/callback', {
    robots: 'disallow',
    rendering: 'browser',
    sitemap: 'none',
    purpose: 'Where Naver sends the visitor back (code and state) to finish a social login.',
  }),
  user: page({
    path: '/user/:id',
    to: (userId: number | string, cardSavedFor?: number) =>
      `/user/${userId}${cardSavedFor === undefined ? '' : `?${CARD_RETURN_PARAMS.subscription}=${cardSavedFor}&${CARD_RETURN_PARAMS.session}={CHECKOUT_SESSION_ID}`}`,
    robots: 'disallow',
    rendering: 'browser',
    sitemap: 'none',
    purpose: "The buyer's panel: their subscriptions, verification help and renewal settings.",
  }),
  support: fixed('/support', { ...content, purpose: 'How to reach support, with links to the FAQ and how it works.' }),
  faq: fixed('/faq', { ...content, purpose: 'Frequently asked questions.' }),
  howItWorks: fixed('/howitworks', { ...content, purpose: 'How buying a shared subscription works, step by step.' }),
  termsAndConditions: fixed('/termsandconditions', { ...content, purpose: 'Terms and conditions.' }),
  privacyPolicy: fixed('/privacypolicy', { ...content, purpose: 'Privacy policy.' }),
  aboutUs: fixed('/aboutus', { ...content, purpose: 'About us: the business behind the shop.' }),
  amlPolicy: fixed('/amlpolicy', { ...content, purpose: 'Anti-money-laundering policy.' }),
  copyrightPolicy: fixed('/copyrightpolicy', { ...content, purpose: 'Copyright policy.' }),
  refundPolicy: fixed('/refundpolicy', { ...content, purpose: 'Refund policy.' }),
  admin: fixed('/jve', { ...admin, purpose: "The admin area's dashboard (staff only; others are sent to / with the return URL kept)." }),
  adminOrders: page({
    path: '/jve/orders/:sid',
    to: (state: number, search?: number | string) => `/jve/orders/${state}${query({ search })}`,
    ...admin,
    purpose: 'Orders in one state (2 completed, 6 paid but not completed, 5 refunded), searchable by order id.',
  }),
  adminCreateSubscription: fixed('/jve/createsubscriber', { ...admin, purpose: 'Create a subscription: a mailbox account and slot for a paid order.' }),
  adminUsers: fixed('/jve/users', { ...admin, purpose: 'The users list, searchable by e-mail.' }),
  adminUser: page({
    path: '/jve/user/:id',
    to: (userId: number | string) => `/jve/user/${userId}`,
    ...admin,
    purpose: 'One user: their orders and subscriptions, with Replace.',
  }),
  adminStaff: fixed('/jve/staff', { ...admin, purpose: 'Staff roles (admins only).' }),
  adminAudit: fixed('/jve/audit', { ...admin, purpose: 'The audit log of staff actions (admins only).' }),
  adminHealth: fixed('/jve/health', { ...admin, purpose: 'Account health: shared accounts with alerts, and the buyers moved off them.' }),
  adminOutbox: fixed('/jve/outbox', { ...admin, purpose: 'The e-mail outbox: what was sent, what failed, and resending.' }),
  adminPromos: fixed('/jve/promos', { ...admin, purpose: 'Promotion codes: create, change, deactivate, and what each has given (admins only).' }),
  adminCatalog: fixed('/jve/catalog', { ...admin, purpose: 'The catalog: the platforms (admins only).' }),
  adminNewPlatform: fixed('/jve/catalog/new', { ...admin, purpose: 'The platform editor for a new platform.' }),
  adminPlatform: page({
    path: '/jve/catalog/:id',
    to: (platformId: number | string, query?: string) => `/jve/catalog/${platformId}${query ? `?${query}` : ''}`,
    ...admin,
    purpose: 'The platform editor for one platform (a query may prefill a mailbox rule).',
  }),
} as const;

export type PageName = keyof typeof PAGES;

/** The link builders by page name: `pagePath.user(7)` is '/user/7'. */
export const pagePath = Object.fromEntries(Object.entries(PAGES).map(([name, declaration]) => [name, declaration.to])) as {
  readonly [Name in PageName]: (typeof PAGES)[Name]['to'];
};

/** The pages written as a route below `parent`, for a router nested there: routeWithin(PAGES.admin, PAGES.adminUser) is 'user/:id'. */
export function routeWithin(parent: PageDeclaration, child: PageDeclaration): string {
  const prefix = parent.path === '/' ? '/' : `${parent.path}/`;
  if (!child.path.startsWith(prefix)) throw new Error(`${child.path} is not below ${parent.path}`);
  return child.path.slice(prefix.length);
}

/** A page's path as the docs write it ('/user/{id}'), for descriptions that name a page. */
export function pagePattern(page: PageDeclaration): string {
  return page.path.replace(/:([A-Za-z]+)/g, '{$1}');
}

/** Pages as a list, in declaration order. */
export const PAGE_LIST: readonly PageDeclaration<string, never[]>[] = Object.values(PAGES) as readonly PageDeclaration<string, never[]>[];

/**
 * The robots.txt prefixes of the disallowed pages: each page's path up to its first parameter
 * ('/user/:id' → '/user/'), without those another prefix already covers ('/paymentresult/' is
 * within '/payment').
 */
export function robotsDisallowPrefixes(): string[] {
  const prefixes = PAGE_LIST.filter((declaration) => declaration.robots === 'disallow').map((declaration) => declaration.path.split(':')[0]!);
  return [...new Set(prefixes)].filter((prefix, _index, all) => !all.some((other) => other !== prefix && prefix.startsWith(other)));
}
