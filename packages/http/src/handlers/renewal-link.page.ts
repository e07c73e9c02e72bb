/**
 * The pages the renewal e-mails' links open, without logging in. A GET only shows a page with a
 * confirm button; the button POSTs the token back. Mail scanners and link previewers (Outlook Safe
 * Links, Gmail's image and link proxies, chat unfurlers) fetch every link of an e-mail with GET, so
 * a link that cancelled or started a payment on GET would do so without the buyer: a POST from a
 * form needs a person's click.
 */
import type { Request, Response } from 'express';
import { escapeHtml, type LinkPage } from '@subshare/core';

export function renderLinkPage(page: LinkPage, action: string): string {
  const form = page.confirm
    ? `<form method="post" action="${escapeHtml(action)}">
         <input type="hidden" name="token" value="${escapeHtml(page.confirm.token)}">
         <button type="submit" data-testid="link-confirm">${escapeHtml(page.confirm.label)}</button>
       </form>`
    : '<p><a href="/">Back to the shop</a></p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)} · subshare</title><meta name="robots" content="noindex">
<style>
  body{font-family:system-ui,sans-serif;background:#f4f4f7;margin:0;display:grid;place-items:center;min-height:100vh;color:#1a1a2e}
  main{background:#fff;border-radius:16px;padding:32px;max-width:420px;width:calc(100% - 32px);box-shadow:0 8px 30px #0001}
  button{font-size:1rem;padding:12px 16px;border-radius:8px;border:0;cursor:pointer;background:#5b2bd6;color:#fff;width:100%}
  button:focus-visible{outline:3px solid #1a1a2e;outline-offset:2px}
</style></head>
<body><main><h1 data-testid="link-title">${escapeHtml(page.title)}</h1><p data-testid="link-message">${escapeHtml(page.message)}</p>
${form}
</main></body></html>`;
}

/**
 * Answers a link page: a redirect when it has one, the HTML page otherwise (never cached: it shows
 * a subscription's state). A refusal (bad or expired token) is the API's JSON error
 * `{ message, code: renewal_link_invalid }` unless the client prefers HTML (a browser opening the link).
 */
export function sendLinkPage(req: Request, res: Response, page: LinkPage, action: string): void {
  res.set('cache-control', 'no-store');
  if (page.redirect) {
    res.redirect(303, page.redirect);
    return;
  }
  if (page.status >= 400 && req.accepts(['json', 'html']) !== 'html') {
    res.status(page.status).json({ message: page.message, code: page.status === 404 ? 'renewal_link_invalid' : 'renewal_link_unusable' });
    return;
  }
  res.status(page.status).type('html').send(renderLinkPage(page, action));
}

/** The token of a form POST (`application/x-www-form-urlencoded`, read raw); empty when missing. */
export function formToken(req: Request): string {
  const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  return (new URLSearchParams(body).get('token') ?? '').trim().slice(0, 400);
}
