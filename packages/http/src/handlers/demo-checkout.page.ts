/**
 * The demo provider's checkout page: what `npm start` shows instead of a real provider when
 * no keys are configured. It says plainly that no money moves.
 */
import { escapeHtml, type readDemoToken } from '@subshare/core';

export function renderDemoCheckout(token: string, details: ReturnType<typeof readDemoToken>): string {
  const body = details
    ? `<p class="amount">${escapeHtml(details.amountLabel)}</p>
       <p>Order ${escapeHtml(String(details.orderId))} · payment ${escapeHtml(details.reference)}</p>
       <form method="post" action="/api/webhook/demo">
         <input type="hidden" name="token" value="${escapeHtml(token)}">
         <button name="outcome" value="paid" class="pay" data-testid="demo-pay">Pay</button>
         <button name="outcome" value="cancelled" class="cancel" data-testid="demo-cancel">Cancel</button>
       </form>`
    : '<p>This checkout link is not valid or has expired.</p><p><a href="/">Back to the shop</a></p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Demo payment · subshare</title><meta name="robots" content="noindex">
<style>
  body{font-family:system-ui,sans-serif;background:#f4f4f7;margin:0;display:grid;place-items:center;min-height:100vh;color:#1a1a2e}
  main{background:#fff;border-radius:16px;padding:32px;max-width:420px;width:calc(100% - 32px);box-shadow:0 8px 30px #0001}
  .banner{background:#fff4d6;border:1px solid #e0b400;border-radius:8px;padding:12px;font-weight:600}
  .amount{font-size:2rem;font-weight:700;margin:24px 0 8px}
  form{display:flex;gap:12px;margin-top:24px} button{flex:1;font-size:1rem;padding:12px;border-radius:8px;border:0;cursor:pointer}
  .pay{background:#1f6f43;color:#fff} .cancel{background:#e4e4ea;color:#1a1a2e} button:focus-visible{outline:3px solid #1a1a2e;outline-offset:2px}
</style></head>
<body><main><h1>Demo payment</h1>
<p class="banner" data-testid="demo-banner">DEMO PROVIDER: no real money is charged. This page stands in for a payment provider that is not configured.</p>
${body}
</main></body></html>`;
}
