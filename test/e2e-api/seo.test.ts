/**
 * What search engines and link previews read in the first HTML of each storefront URL (rendered
 * by React on the server), the content a visitor sees before the app has loaded, and sitemap.xml /
 * robots.txt.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { CatalogService } from '@subshare/core';
import { createApp } from '@subshare/http';
import { harness } from '../support/harness.js';
import { ensureWebBuilt } from '../support/web-build.js';

const STATIC_PAGES = [
  '/support',
  '/howitworks',
  '/faq',
  '/aboutus',
  '/termsandconditions',
  '/privacypolicy',
  '/amlpolicy',
  '/copyrightpolicy',
  '/refundpolicy',
];
const PUBLIC_PAGES = ['/', '/platform/1', ...STATIC_PAGES];
const NOINDEX_PAGES = [
  '/login',
  '/register',
  '/payment',
  '/user/5',
  '/jve',
  '/jve/orders/2',
  '/naver/callback',
  '/paymentresult/12/1',
  '/payssionpaymentresult',
];
const HANGUL = /[\uac00-\ud7a3]/;

interface WirePlatform {
  id: number;
  name: string;
  logoBase: string;
  duration: Array<{ id: number; value: number; isEnable: boolean }>;
  type: Array<{ id: number; isEnable: boolean }>;
  prices: Array<{ durationId: number; typeId: number; salePrice: Array<{ currencyId: number; price: number }> }>;
}

const decode = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The head of a page as a crawler reads it. */
function readHead(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const tags = [...head.matchAll(/<(meta|link)\b([^>]*)>/g)].map(([, tag, attributes]) => ({
    tag,
    attributes: Object.fromEntries([...attributes!.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, name, value]) => [name, decode(value!)])),
  }));
  const meta = (key: string) =>
    tags.filter((t) => t.tag === 'meta' && (t.attributes.name === key || t.attributes.property === key)).map((t) => t.attributes.content);
  return {
    titles: [...head.matchAll(/<title>([\s\S]*?)<\/title>/g)].map((match) => decode(match[1]!)),
    lang: /<html\b[^>]*\blang="([^"]*)"/.exec(html)?.[1],
    meta,
    one: (key: string) => {
      const values = meta(key);
      expect(values, `exactly one ${key}`).to.have.length(1);
      return values[0]!;
    },
    canonical: tags.filter((t) => t.tag === 'link' && t.attributes.rel === 'canonical').map((t) => t.attributes.href),
    alternates: Object.fromEntries(
      tags.filter((t) => t.tag === 'link' && t.attributes.rel === 'alternate').map((t) => [t.attributes.hreflang, t.attributes.href]),
    ),
  };
}

/** The pre-rendered content inside <div id="root">. */
const rootOf = (html: string) => {
  const start = html.indexOf('<div id="root">');
  expect(start, 'the shell keeps <div id="root">').to.be.above(-1);
  return html.slice(start, html.indexOf('</body>'));
};

/** The home card's price as the spec computes it: first enabled duration, first enabled type, sale price / months. */
function expectedMonthly(platform: WirePlatform, currencyId: number): number {
  const duration = platform.duration.find((d) => d.isEnable)!;
  const type = platform.type.find((t) => t.isEnable)!;
  const price = platform.prices.find((p) => p.durationId === duration.id && p.typeId === type.id)!;
  const sale = price.salePrice.find((p) => p.currencyId === currencyId)!.price;
  const digits = currencyId === 1 ? 2 : 0;
  return Math.round((sale / duration.value) * 10 ** digits) / 10 ** digits;
}

describe('storefront HTML for search engines and first paint', () => {
  const app = () => harness().app;
  const base = () => harness().config.publicUrl.replace(/\/$/, '');

  before(function () {
    this.timeout(180_000);
    ensureWebBuilt();
  });

  for (const lang of ['en', 'ko'] as const) {
    it(`gives every public page its own title, description, canonical URL, Open Graph tags and hreflang alternates (${lang})`, async () => {
      const titles = new Set<string>();
      for (const page of PUBLIC_PAGES) {
        const res = await request(app()).get(page).query({ lang }).expect(200).expect('Content-Type', /html/);
        const head = readHead(res.text);
        const url = `${base()}${page}${lang === 'ko' ? '?lang=ko' : ''}`;
        expect(head.lang, page).to.equal(lang);
        expect(head.titles, `${page}: one title`).to.have.length(1);
        titles.add(head.titles[0]!);
        const description = head.one('description');
        expect(description.length, `${page}: description`).to.be.within(30, 200);
        if (lang === 'ko') expect(`${head.titles[0]} ${description}`, page).to.match(HANGUL);
        else expect(`${head.titles[0]} ${description}`, page).to.not.match(HANGUL);
        expect(head.canonical, `${page}: canonical`).to.deep.equal([url]);
        expect(head.alternates, `${page}: hreflang`).to.deep.equal({ en: `${base()}${page}`, ko: `${base()}${page}?lang=ko`, 'x-default': `${base()}${page}` });
        expect(head.one('og:url')).to.equal(url);
        expect(head.one('og:title')).to.equal(head.titles[0]);
        expect(head.one('og:description')).to.equal(description);
        expect(head.one('og:image')).to.match(new RegExp(`^${base()}/media/`));
        expect(head.one('og:locale')).to.equal(lang === 'ko' ? 'ko_KR' : 'en_US');
        expect(head.meta('robots')).to.deep.equal([]);
        expect(res.text, 'the app still loads').to.match(/<script type="module"[^>]+src="\/assets\//);
      }
      expect(titles.size, 'titles differ from page to page').to.equal(PUBLIC_PAGES.length);
    });
  }

  it('follows Accept-Language (or the country header) when the URL names no language; ?lang wins', async () => {
    const korean = await request(app()).get('/support').set('Accept-Language', 'ko-KR,ko;q=0.9').expect(200);
    expect(readHead(korean.text).lang).to.equal('ko');
    expect(readHead(korean.text).canonical).to.deep.equal([`${base()}/support?lang=ko`]);
    expect(korean.headers.vary).to.match(/Accept-Language/i);
    const english = await request(app()).get('/support').set('Accept-Language', 'en-GB').expect(200);
    expect(readHead(english.text).lang).to.equal('en');
    const chosen = await request(app()).get('/support').set('Accept-Language', 'ko-KR').query({ lang: 'en' }).expect(200);
    expect(readHead(chosen.text).lang).to.equal('en');
    const country = harness().appWith({ COUNTRY_HEADER: 'cf-ipcountry' });
    const fromCountry = await request(country.app).get('/').set('cf-ipcountry', 'KR').set('Accept-Language', 'en').expect(200);
    expect(readHead(fromCountry.text).lang).to.equal('ko');
    expect(fromCountry.text).to.match(/₩\d/);
  });

  it('shows a platform page with its logo as preview image, its price and schema.org data', async () => {
    const { body } = await request(app()).get('/api/platform/getplatform').query({ id: 1, languageId: 1 }).expect(200);
    const platform = body.platform as WirePlatform;
    const res = await request(app()).get('/platform/1').set('Accept-Language', 'en').expect(200);
    const head = readHead(res.text);
    expect(head.titles[0]).to.contain(platform.name);
    expect(head.one('og:image')).to.equal(`${base()}${platform.logoBase}`);
    const monthly = expectedMonthly(platform, 1).toFixed(2);
    expect(head.one('description')).to.contain(`€${monthly}/month`);
    const jsonLd = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(res.text)?.[1];
    expect(JSON.parse(jsonLd!)).to.include({ '@type': 'Product', name: platform.name });
    const root = rootOf(res.text);
    expect(root).to.match(new RegExp(`<h1 data-testid="platform-name"[^>]*>${platform.name}</h1>`));
    expect(root).to.contain(`€${monthly}`);
    expect(root).to.match(
      new RegExp(`<img data-testid="platform-logo" src="${platform.logoBase}" alt="[^"]*${platform.name}[^"]*" width="\\d+" height="\\d+"`),
    );
  });

  it('answers an unknown or malformed platform, and an unknown path, with a not-found page and status 404', async () => {
    for (const [page, title] of [
      ['/platform/999999', /Platform not found/],
      ['/platform/abc', /Platform not found/],
      ['/no/such/page', /Page not found/],
    ] as const) {
      const res = await request(app()).get(page).set('Accept-Language', 'en').expect(404).expect('Content-Type', /html/);
      const head = readHead(res.text);
      expect(head.titles[0]).to.match(title);
      expect(head.meta('robots')).to.deep.equal(['noindex']);
      expect(head.canonical).to.deep.equal([]);
      expect(res.text).to.match(/<script type="module"[^>]+src="\/assets\//);
    }
    const korean = await request(app()).get('/platform/999999').query({ lang: 'ko' }).expect(404);
    expect(readHead(korean.text).titles[0]).to.match(HANGUL);
  });

  it('keeps login, checkout, panel and admin pages out of search results', async () => {
    for (const page of NOINDEX_PAGES) {
      const res = await request(app()).get(page).expect(200);
      const head = readHead(res.text);
      expect(head.meta('robots'), page).to.deep.equal(['noindex']);
      expect(head.canonical, page).to.deep.equal([]);
      expect(head.titles, page).to.have.length(1);
      // The shop's frame, and the page itself only for script: without it, a notice in <noscript>.
      expect(res.text, page).to.match(/<div id="root"><div class="[^"]*ss-app[^"]*">/);
      expect(res.text, page).to.match(/<noscript>[\s\S]*data-testid="no-script"[\s\S]*<\/noscript>/);
    }
  });

  it('pre-renders the home page cards with the minimum monthly price in the visitor currency', async () => {
    for (const [lang, currency, currencyId, pattern] of [
      ['en', 'EUR', 1, /^\d+\.\d{2}$/],
      ['ko', 'KRW', 2, /^\d{1,3}(,\d{3})*$/],
      ['en', 'KRW', 2, /^\d{1,3}(,\d{3})*$/],
    ] as const) {
      const api = await request(app())
        .get('/api/main/home')
        .query({ languageId: lang === 'ko' ? 2 : 1 })
        .expect(200);
      const res = await request(app()).get('/').query({ lang, currency }).expect(200);
      const root = rootOf(res.text);
      for (const platform of api.body.platforms as WirePlatform[]) {
        const card = new RegExp(`<article data-testid="platform-card" data-platform-id="${platform.id}"[\\s\\S]*?</article>`).exec(root)?.[0];
        expect(card, `a card for platform ${platform.id}`).to.be.a('string');
        expect(card).to.contain(`href="/platform/${platform.id}"`);
        expect(card).to.contain(`>${platform.name}<`);
        expect(card).to.match(/<img data-testid="platform-card-logo" src="[^"]+" alt="[^"]+" width="\d+" height="\d+"/);
        const symbol = currency === 'EUR' ? '€' : '₩';
        const shown = new RegExp(`data-testid="platform-card-price"[^>]*><span[^>]*>${symbol}([\\d.,]+)</span>`).exec(card!)?.[1];
        expect(shown, `${platform.name} price`).to.match(pattern);
        expect(Number(shown!.replace(/,/g, ''))).to.equal(expectedMonthly(platform, currencyId));
      }
      if (lang === 'ko') expect(root).to.contain('/월');
    }
  });

  it('escapes catalog texts everywhere: title, meta tags, markup and schema.org data', async () => {
    const { knex, container } = harness();
    const catalog = container.get(CatalogService);
    const evil = `<script>alert("x")</script> & 'Co'`;
    const [{ id }] = await knex('platforms')
      .insert({
        slug: `evil-${Date.now()}`,
        category: 1,
        logo_base: '/media/platforms/echora.svg"><script>alert(2)</script>',
        logo_carousel: '/x.svg',
        color_one: '#000000',
        color_two: '#111111',
        slots_count: 2,
        sort_order: 1000,
      })
      .returning('id');
    await knex('platform_texts').insert({ platform_id: id, language_id: 1, name: evil, description: `</title><script>alert(3)</script>` });
    catalog.invalidate();
    try {
      for (const page of ['/', `/platform/${id}`]) {
        const res = await request(app()).get(page).set('Accept-Language', 'en').expect(200);
        expect(res.text, page).to.not.match(/<script>alert/);
        expect(res.text, page).to.not.contain('alert(2)</script>');
        expect(res.text, page).to.not.contain('echora.svg"><');
        // React writes ' as &#x27; in text, the head writer as &#39;: both escaped.
        expect(res.text, page).to.match(/&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &#(39|x27);Co&#(39|x27);/);
      }
      const platformPage = await request(app()).get(`/platform/${id}`).expect(200);
      expect(readHead(platformPage.text).titles[0]).to.contain(evil);
      expect(readHead(platformPage.text).one('og:title')).to.contain(evil);
      expect(platformPage.text).to.contain('\\u003cscript\\u003ealert');
    } finally {
      await knex('platforms').where({ id }).update({ is_enabled: false });
      catalog.invalidate();
    }
  });

  it('serves the rendered page from memory with an ETag, and revalidates with 304', async () => {
    const first = await request(app()).get('/platform/2').query({ lang: 'en', currency: 'EUR' }).expect(200);
    const second = await request(app()).get('/platform/2').query({ lang: 'en', currency: 'EUR' }).expect(200);
    expect(first.headers.etag).to.be.a('string').and.equal(second.headers.etag);
    expect(first.headers['cache-control']).to.equal('no-cache');
    await request(app()).get('/platform/2').query({ lang: 'en', currency: 'EUR' }).set('If-None-Match', first.headers.etag!).expect(304);
    const korean = await request(app()).get('/platform/2').query({ lang: 'ko', currency: 'EUR' }).expect(200);
    expect(korean.headers.etag).to.not.equal(first.headers.etag);
  });

  it('injects at the <!--ssr-head--> marker when the shell has one, and before </head> when not', async () => {
    const shell = (head: string) =>
      `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>subshare</title>${head}</head><body><div id="root"></div><script type="module" src="/assets/x.js"></script></body></html>`;
    for (const [name, html] of [
      ['with marker', shell('<!--ssr-head--><link rel="icon" href="/favicon.svg" />')],
      ['without marker', shell('<link rel="icon" href="/favicon.svg" />')],
    ] as const) {
      const dist = mkdtempSync(path.join(os.tmpdir(), 'subshare-shell-'));
      writeFileSync(path.join(dist, 'index.html'), html);
      const res = await request(createApp(harness().container, { webDist: dist, accessLog: false }))
        .get('/support')
        .query({ lang: 'ko' })
        .expect(200);
      const head = readHead(res.text);
      expect(head.lang, name).to.equal('ko');
      expect(head.titles, name).to.have.length(1);
      expect(head.titles[0], name).to.match(HANGUL);
      expect(res.text, name).to.not.contain('ssr-head');
      expect(res.text.indexOf('<title>'), name).to.be.below(res.text.indexOf('</head>'));
      if (name === 'with marker') expect(res.text.indexOf('<title>')).to.be.below(res.text.indexOf('rel="icon"'));
      expect(rootOf(res.text), name).to.match(/<h1 class="[^"]*">고객 지원<\/h1>/);
    }
  });

  it('lists home, platform and static pages in sitemap.xml, in both languages, with lastmod', async () => {
    const res = await request(app()).get('/sitemap.xml').expect(200).expect('Content-Type', /xml/);
    const xml = res.text;
    expect(xml).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(xml).to.contain(`<loc>${base()}/</loc>`);
    expect(xml).to.contain(`<loc>${base()}/?lang=ko</loc>`);
    for (const page of STATIC_PAGES) {
      expect(xml).to.contain(`<loc>${base()}${page}</loc>`);
      expect(xml).to.contain(`<loc>${base()}${page}?lang=ko</loc>`);
    }
    const platforms = await harness().knex('platforms').where({ is_enabled: true }).select<Array<{ id: number; updated_at: Date }>>('id', 'updated_at');
    for (const platform of platforms) {
      const entry = new RegExp(`<url><loc>${base()}/platform/${platform.id}</loc>(.*?)</url>`).exec(xml)?.[1];
      expect(entry, `platform ${platform.id}`).to.be.a('string');
      expect(entry).to.contain(`<lastmod>${platform.updated_at.toISOString()}</lastmod>`);
      expect(entry).to.contain(`<xhtml:link rel="alternate" hreflang="ko" href="${base()}/platform/${platform.id}?lang=ko"/>`);
      expect(entry).to.contain(`<xhtml:link rel="alternate" hreflang="x-default" href="${base()}/platform/${platform.id}"/>`);
    }
    const disabled = await harness().knex('platforms').where({ is_enabled: false }).select<Array<{ id: number }>>('id');
    for (const { id } of disabled) expect(xml).to.not.contain(`/platform/${id}<`);
    expect(xml).to.not.match(/\/(jve|user|payment|login)/);
  });

  it('serves robots.txt that keeps crawlers out of the admin area, the API, panels and checkout', async () => {
    const res = await request(app())
      .get('/robots.txt')
      .expect(200)
      .expect('Content-Type', /text\/plain/);
    const lines = res.text.split('\n');
    expect(lines).to.include.members(['User-agent: *', 'Allow: /', 'Disallow: /jve', 'Disallow: /api/', 'Disallow: /user/', 'Disallow: /payment']);
    expect(lines).to.include(`Sitemap: ${base()}/sitemap.xml`);
  });
});
