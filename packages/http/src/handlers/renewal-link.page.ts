/**
 * The pages the renewal e-mails' links open, without logging in. A GET only shows a page with a
 * confirm button; the button POSTs the token back. Mail scanners and link previewers (Outlook Safe
 * Links, Gmail's image and link proxies, chat unfurlers) fetch every link of an e-mail with GET, so
 * a link that cancelled or started a payment on GET would do so without the buyer: a POST from a
 * form needs a person's click.
 *
 * The page is the shop's (issue 35): rendered by the web app's server bundle in the storefront's
 * frame (header, footer), in the language of the order as the e-mail is, with the words core wrote
 * (flows/renewal-link-texts.ts). Without the bundle (the web app not built), a bare page says the same.
 */
import type { Request, Response } from 'express';
import { escapeHtml, type LinkPage } from '@subshare/core';
import type { ssr } from '@subshare/core/wire';
import { SHOP_FRAME, type ShopFrame } from '../static.js';

/** The words of a link page as the web's notice (wire/ssr.ts). */
export function noticeOf(page: LinkPage, action: string): ssr.Notice {
  return {
    testId: 'link',
    title: page.title,
    message: page.message,
    ...(page.facts ? { facts: page.facts } : {}),
    ...(page.note ? { note: page.note } : {}),
    ...(page.confirm ? { form: { action, fields: [['token', page.confirm.token]], label: page.confirm.label } } : {}),
    ...(page.links ? { links: page.links } : {}),
  };
}

/** The page without the shop's frame: when the web app is not built, or its rendering failed. */
export function renderBareLinkPage(page: LinkPage, action: string): string {
  const facts = page.facts?.length
    ? `<dl data-testid="link-facts">${page.facts.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd data-testid="link-fact">${escapeHtml(value)}</dd>`).join('')}</dl>`
    : '';
  const note = page.note ? `<p data-testid="link-note"><strong>${escapeHtml(page.note)}</strong></p>` : '';
  const form = page.confirm
    ? `<form method="post" action="${escapeHtml(action)}">
         <input type="hidden" name="token" value="${escapeHtml(page.confirm.token)}">
         <button type="submit" data-testid="link-confirm">${escapeHtml(page.confirm.label)}</button>
       </form>`
    : '';
  const links = (page.links ?? []).map((link) => `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`).join('');
  return `<!doctype html>
<html lang="${page.languageId === 2 ? 'ko' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)}</title><meta name="robots" content="noindex">
<style>
  body{font-family:system-ui,sans-serif;margin:0;color:#1a1a2e}
  main{padding:24px 16px;max-width:36rem;margin:0 auto;overflow-wrap:anywhere}
  button{font-size:1rem;padding:12px 16px;border-radius:8px;border:0;cursor:pointer;background:#5b2bd6;color:#fff;width:100%}
  button:focus-visible{outline:3px solid #1a1a2e;outline-offset:2px}
</style></head>
<body><main><h1 data-testid="link-title">${escapeHtml(page.title)}</h1><p data-testid="link-message">${escapeHtml(page.message)}</p>
${facts}${note}${form}${links}
</main></body></html>`;
}

/**
 * Answers a link page: a redirect when it has one, the HTML page otherwise (never cached: it shows
 * a subscription's state). A refusal (bad or expired token) is the API's JSON error
 * `{ message, code: renewal_link_invalid }` unless the client prefers HTML (a browser opening the link).
 */
export async function sendLinkPage(req: Request, res: Response, page: LinkPage, action: string): Promise<void> {
  res.set('cache-control', 'no-store');
  if (page.redirect) {
    res.redirect(303, page.redirect);
    return;
  }
  if (page.status >= 400 && req.accepts(['json', 'html']) !== 'html') {
    res.status(page.status).json({ message: page.message, code: page.status === 404 ? 'renewal_link_invalid' : 'renewal_link_unusable' });
    return;
  }
  res.status(page.status).type('html');
  const frame = req.app.locals[SHOP_FRAME] as ShopFrame | undefined;
  const template = frame?.indexHtml();
  let framed: Buffer | undefined;
  try {
    framed = frame && template ? await frame.storefront.renderNotice(template, req, noticeOf(page, action), page.languageId) : undefined;
  } catch (error) {
    req.log?.error({ err: error }, 'rendering a renewal link page in the frame failed; answering the bare page');
  }
  res.send(framed ?? renderBareLinkPage(page, action));
}

/** The token of a form POST (`application/x-www-form-urlencoded`, read raw); empty when missing. */
export function formToken(req: Request): string {
  const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  return (new URLSearchParams(body).get('token') ?? '').trim().slice(0, 400);
}
