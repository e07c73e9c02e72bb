/**
 * The demo provider's checkout page: what `npm start` shows instead of a real provider when
 * no keys are configured. It says plainly that no money moves, in the visitor's language
 * (the storefront's rule: ?lang=, the display cookie, then the country), English or Korean.
 * A checkout with "Renew automatically" also asks which demo card to save: one that pays every
 * renewal or one that is declined, so a newcomer can try renewal and dunning (docs/demo-mode.md).
 */
import { DEMO_CARDS, escapeHtml, type readDemoToken } from '@subshare/core';

export type DemoPageLanguage = 'en' | 'ko';

const TEXTS = {
  en: {
    title: 'Demo payment',
    banner: 'DEMO PROVIDER: no real money is charged. This page stands in for a payment provider that is not configured.',
    order: (orderId: string, reference: string) => `Order ${orderId} · payment ${reference}`,
    pay: 'Pay',
    cancel: 'Cancel',
    invalid: 'This checkout link is not valid or has expired.',
    back: 'Back to the shop',
    cardLegend: 'Demo card saved for automatic renewal',
    cardPays: (last4: string) => `Card ending ${last4}: every renewal is paid`,
    cardDeclines: (last4: string) => `Card ending ${last4}: renewals are declined (to see the retries and e-mails)`,
  },
  ko: {
    title: '데모 결제',
    banner: '데모 결제 대행사: 실제로 돈이 결제되지 않습니다. 이 페이지는 아직 설정되지 않은 결제 대행사를 대신합니다.',
    order: (orderId: string, reference: string) => `주문 ${orderId} · 결제 ${reference}`,
    pay: '결제하기',
    cancel: '취소',
    invalid: '이 결제 링크는 유효하지 않거나 만료되었습니다.',
    back: '쇼핑몰로 돌아가기',
    cardLegend: '자동 연장에 저장할 데모 카드',
    cardPays: (last4: string) => `끝자리 ${last4} 카드: 매번 연장 결제가 됩니다`,
    cardDeclines: (last4: string) => `끝자리 ${last4} 카드: 연장 결제가 거절됩니다(재시도와 안내 이메일을 확인할 수 있습니다)`,
  },
} as const;

export function renderDemoCheckout(token: string, details: ReturnType<typeof readDemoToken>, language: DemoPageLanguage = 'en'): string {
  const t = TEXTS[language];
  const body = details
    ? `<p class="amount">${escapeHtml(details.amountLabel)}</p>
       <p>${escapeHtml(t.order(String(details.orderId), details.reference))}</p>
       <form method="post" action="/api/webhook/demo">
         <input type="hidden" name="token" value="${escapeHtml(token)}">
         ${details.saveCardFor ? cardChoice(t) : ''}
         <button name="outcome" value="paid" class="pay" data-testid="demo-pay">${t.pay}</button>
         <button name="outcome" value="cancelled" class="cancel" data-testid="demo-cancel">${t.cancel}</button>
       </form>`
    : `<p>${t.invalid}</p><p><a href="/">${t.back}</a></p>`;
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${t.title} · subshare</title><meta name="robots" content="noindex">
<style>
  body{font-family:system-ui,sans-serif;background:#f4f4f7;margin:0;display:grid;place-items:center;min-height:100vh;color:#1a1a2e;word-break:keep-all}
  main{background:#fff;border-radius:16px;padding:32px;max-width:420px;width:calc(100% - 32px);box-shadow:0 8px 30px #0001}
  .banner{background:#fff4d6;border:1px solid #e0b400;border-radius:8px;padding:12px;font-weight:600}
  .amount{font-size:2rem;font-weight:700;margin:24px 0 8px}
  form{display:flex;flex-wrap:wrap;gap:12px;margin-top:24px} fieldset{flex-basis:100%;border:1px solid #d0d0da;border-radius:8px;margin:0} label{display:block;margin:6px 0} button{flex:1;font-size:1rem;padding:12px;border-radius:8px;border:0;cursor:pointer}
  .pay{background:#1f6f43;color:#fff} .cancel{background:#e4e4ea;color:#1a1a2e} button:focus-visible{outline:3px solid #1a1a2e;outline-offset:2px}
</style></head>
<body><main><h1>${t.title}</h1>
<p class="banner" data-testid="demo-banner">${t.banner}</p>
${body}
</main></body></html>`;
}

/** The demo cards to save when the buyer ticked "Renew automatically" (the one that pays is chosen). */
function cardChoice(t: (typeof TEXTS)[DemoPageLanguage]): string {
  return `<fieldset data-testid="demo-card-choice"><legend>${t.cardLegend}</legend>
           <label><input type="radio" name="card" value="${DEMO_CARDS.pays}" checked data-testid="demo-card-pays"> ${t.cardPays(DEMO_CARDS.pays)}</label>
           <label><input type="radio" name="card" value="${DEMO_CARDS.declines}" data-testid="demo-card-declines"> ${t.cardDeclines(DEMO_CARDS.declines)}</label>
         </fieldset>`;
}
