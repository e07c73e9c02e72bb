/**
 * The `<meta name>` of every first HTML (private pages too) that holds the currency the server
 * chose for the visitor (KRW for Korea, else EUR, unless they chose one): every page starts in it.
 */
export const CURRENCY_META_NAME = 'subshare-currency';
