/**
 * The first paint: small, plain markup inside `<div id="root">` that shows the page before the
 * app's JavaScript has arrived, and works as plain links without it. React's createRoot
 * replaces it wholesale, so it carries no test ids and no behaviour; its look follows the app
 * (1280px column, the cards' logo band on the brand colour) through a few lines of CSS.
 */
import { escapeHtml, type CurrencyCode, type PlatformView } from '@subshare/core';
import { safeColor } from './escape.js';
import { formatMoney, minimumMonthly, priceLine } from './prices.js';
import { CONTENT_PAGES, TEXTS, type Lang } from './texts.js';

/** Scoped to `.ssr`; `body` margin matches the app's CSS reset so nothing jumps. */
export const CRITICAL_CSS = [
  'body{margin:0}',
  '.ssr{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR","Noto Sans CJK KR",sans-serif;color:#18181b;line-height:1.5;min-height:100vh;display:flex;flex-direction:column}',
  '.ssr a{color:inherit}',
  '.ssr-w{width:100%;max-width:1280px;margin:0 auto;padding:0 16px;box-sizing:border-box}',
  '.ssr-bar{border-bottom:1px solid #e4e4e7}',
  '.ssr-bar .ssr-w{display:flex;align-items:center;gap:20px;min-height:64px}',
  '.ssr-brand{font-weight:800;font-size:22px;text-decoration:none;color:#6b46c1!important;margin-right:auto}',
  '.ssr main{flex:1;min-height:calc(100vh - 120px)}',
  '.ssr h1{font-size:clamp(30px,6vw,48px);line-height:1.1;margin:32px 0 16px}',
  '.ssr h2{font-size:24px;margin:32px 0 16px}',
  '.ssr-lead{font-size:18px;color:#52525b;margin:0 0 12px}',
  '.ssr-note{font-size:14px;font-weight:500;color:#6b21a8;margin:0}',
  '.ssr-grid{list-style:none;padding:0;margin:0 0 32px;display:grid;gap:24px;grid-template-columns:repeat(auto-fill,minmax(240px,1fr))}',
  '.ssr-card{display:block;height:100%;border:1px solid #e4e4e7;border-radius:12px;overflow:hidden;text-decoration:none}',
  '.ssr-logo{display:flex;align-items:center;justify-content:center;height:144px;padding:0 24px}',
  '.ssr-logo img{height:64px;width:auto;max-width:80%}',
  '.ssr-name{display:block;font-size:20px;font-weight:700;padding:20px 20px 8px}',
  '.ssr-price{display:block;padding:0 20px 20px;color:#52525b}',
  '.ssr-price strong{font-size:24px;color:#18181b}',
  '.ssr-foot{border-top:1px solid #e4e4e7;font-size:14px;padding:16px 0}',
  '.ssr-foot ul{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:8px 20px}',
].join('');

export interface PageContext {
  lang: Lang;
  currency: CurrencyCode;
  /** The canonical path of this page, to build the language switch link. */
  path: string;
}

function frame(context: PageContext, main: string): string {
  const t = TEXTS[context.lang];
  const other: Lang = context.lang === 'en' ? 'ko' : 'en';
  const switchHref = `${context.path}?lang=${other}`;
  const footerLinks = CONTENT_PAGES.map((page) => `<li><a href="/${page}">${escapeHtml(t.content[page].title)}</a></li>`).join('');
  return (
    `<div class="ssr" data-ssr="">` +
    `<header class="ssr-bar"><nav class="ssr-w" aria-label="${escapeHtml(t.nav.main)}">` +
    `<a class="ssr-brand" href="/" aria-label="${escapeHtml(t.nav.home)}">subshare</a>` +
    `<a href="/howitworks">${escapeHtml(t.nav.howItWorks)}</a>` +
    `<a href="${escapeHtml(switchHref)}" hreflang="${other}" lang="${other}">${escapeHtml(TEXTS[other].languageName)}</a>` +
    `</nav></header>` +
    `<main class="ssr-w">${main}</main>` +
    `<footer class="ssr-foot"><nav class="ssr-w" aria-label="${escapeHtml(t.nav.footer)}"><ul>${footerLinks}</ul></nav></footer>` +
    `</div>`
  );
}

function logo(platform: PlatformView, eager: boolean): string {
  return (
    `<span class="ssr-logo" style="background:${safeColor(platform.colorOne)}">` +
    `<img src="${escapeHtml(platform.logoBase)}" alt="${escapeHtml(platform.name)}" width="240" height="80"${eager ? '' : ' loading="lazy"'} decoding="async">` +
    `</span>`
  );
}

export function homeMarkup(context: PageContext, platforms: readonly PlatformView[]): string {
  const t = TEXTS[context.lang];
  const cards = platforms
    .map((platform, index) => {
      const price = minimumMonthly(platform, context.currency);
      const priceHtml = price
        ? `<span class="ssr-price"><strong>${escapeHtml(formatMoney(price.monthly, context.lang))}</strong>${escapeHtml(t.card.perMonth)}</span>`
        : '';
      return (
        `<li><a class="ssr-card" href="/platform/${platform.id}">${logo(platform, index < 4)}` +
        `<span class="ssr-name">${escapeHtml(platform.name)}</span>${priceHtml}</a></li>`
      );
    })
    .join('');
  return frame(
    context,
    `<h1>${escapeHtml(t.home.slogan)}</h1>` +
      `<p class="ssr-lead">${escapeHtml(t.home.subslogan)}</p>` +
      `<p class="ssr-note">${escapeHtml(t.home.promise)}</p>` +
      `<h2>${escapeHtml(t.home.platforms)}</h2>` +
      `<ul class="ssr-grid">${cards}</ul>`,
  );
}

export function platformMarkup(context: PageContext, platform: PlatformView): string {
  const t = TEXTS[context.lang];
  const type = platform.types.find((option) => option.isEnabled);
  const lines = type
    ? platform.durations
        .filter((duration) => duration.isEnabled)
        .map((duration) => priceLine(platform, duration, type, context.currency))
        .filter((line) => line !== null)
    : [];
  const first = lines[0];
  const headline = first
    ? `<p class="ssr-price"><strong>${escapeHtml(formatMoney(first.monthly, context.lang))}</strong>${escapeHtml(t.card.perMonth)}</p>`
    : '';
  const prices = lines.length
    ? `<h2>${escapeHtml(t.platform.prices)}</h2><ul>` +
      lines
        .map(
          (line) =>
            `<li>${escapeHtml(line.type.name)} · ${escapeHtml(line.duration.name)}: ${escapeHtml(formatMoney(line.sale, context.lang))} ` +
            `(${escapeHtml(formatMoney(line.monthly, context.lang))}${escapeHtml(t.card.perMonth)})</li>`,
        )
        .join('') +
      `</ul>`
    : '';
  const howItWorks = platform.howItWorks.length
    ? `<h2>${escapeHtml(t.platform.howItWorks)}</h2><ol>${platform.howItWorks.map((step) => `<li>${escapeHtml(step)}</li>`).join('')}</ol>`
    : '';
  const faq = platform.faq.length
    ? `<h2>${escapeHtml(t.platform.faq)}</h2>` +
      platform.faq.map((entry) => `<details><summary>${escapeHtml(entry.question)}</summary><p>${escapeHtml(entry.answer)}</p></details>`).join('')
    : '';
  return frame(
    context,
    `<div class="ssr-card" style="margin-top:24px;max-width:480px">${logo(platform, true)}</div>` +
      `<h1>${escapeHtml(platform.name)}</h1>${headline}` +
      `<p class="ssr-lead">${escapeHtml(platform.description)}</p>` +
      howItWorks +
      prices +
      faq +
      `<p><a href="/">${escapeHtml(t.platform.allPlatforms)}</a></p>`,
  );
}

export function titleMarkup(context: PageContext, title: string, text?: string): string {
  return frame(context, `<h1>${escapeHtml(title)}</h1>${text ? `<p class="ssr-lead">${escapeHtml(text)}</p>` : ''}`);
}

export function notFoundMarkup(context: PageContext, title: string, text: string): string {
  const t = TEXTS[context.lang];
  return frame(context, `<h1>${escapeHtml(title)}</h1><p class="ssr-lead">${escapeHtml(text)}</p><p><a href="/">${escapeHtml(t.notFound.home)}</a></p>`);
}
