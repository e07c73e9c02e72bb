// Lighthouse 13 on the storefront: `/` and `/platform/{id}`, mobile and desktop, median of 3
// runs, with Debian's Chromium. Prints the four category scores and the first-load JavaScript
// (gzip bytes of the scripts downloaded while the page loads).
//
// Then the first tap's Interaction to Next Paint (web-vitals' onINP with reportAllChanges) on a
// 390×844 phone with 4× CPU throttling: a FAQ question and a duration of the platform page,
// each tapped right after DOMContentLoaded on a fresh page, median of the same number of runs.
//
// Reference, measured in the same run on the same machine: the same first HTML without the
// app's JavaScript (only the server-rendered head and pre-rendered content, images and CSS),
// served by a bare node:http server. Its performance score is what the page would get if the
// app cost nothing; "ratio" is ours / reference, so machine noise cancels out in part.
//
//   npm run bench:lighthouse [-- --runs=3 --no-reference --platform=1 --form=mobile]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { ROOT, benchArgs, ensureBuilt, freePort, median, startShop } from './shop.mjs';

const args = benchArgs();
const RUNS = Number(args.get('runs') ?? 3);
const WITH_REFERENCE = !args.has('no-reference');
const PAGES = ['/', `/platform/${args.get('platform') ?? 1}`];
const FORM_FACTORS = args.has('form') ? [args.get('form')] : ['mobile', 'desktop'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The bare reference: our first HTML minus its scripts; anything else is fetched from the shop. */
async function startReference(shopUrl) {
  const pages = new Map();
  for (const page of PAGES) {
    const html = await (await fetch(`${shopUrl}${page}`, { headers: { 'accept-language': 'en' } })).text();
    const stripped = html.replace(/<script type="module"[^>]*><\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '');
    pages.set(page, gzipSync(stripped));
  }
  const server = http.createServer(async (req, res) => {
    const page = pages.get(req.url);
    if (page) {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-encoding': 'gzip',
        'content-length': page.length,
        'cache-control': 'no-cache',
      });
      res.end(page);
      return;
    }
    const upstream = await fetch(`${shopUrl}${req.url}`);
    const body = Buffer.from(await upstream.arrayBuffer());
    const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
    const gzip = /text|xml|json|javascript|svg/.test(type);
    const sent = gzip ? gzipSync(body) : body;
    res.writeHead(upstream.status, {
      'content-type': type,
      'cache-control': upstream.headers.get('cache-control') ?? 'no-cache',
      'content-length': sent.length,
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(sent);
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART…): such a run is repeated. */
async function audit(chrome, url, formFactor, attempts = 3) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await auditOnce(chrome, url, formFactor);
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.warn(`\n!! ${error.message}: trying again`);
    }
  }
}

async function auditOnce(chrome, url, formFactor) {
  const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, extraHeaders: { 'Accept-Language': 'en' } };
  const { lhr } = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = requests.filter((item) => item.resourceType === 'Script');
  const broken = requests.filter((item) => item.statusCode >= 400).map((item) => `${item.statusCode} ${item.url}`);
  if (broken.length) console.warn(`\n!! ${url} (${formFactor}): failed requests: ${broken.join(', ')}`);
  const failed = Object.values(lhr.audits)
    .filter((entry) => entry.score !== null && entry.score < 1 && entry.scoreDisplayMode === 'binary')
    .map((entry) => entry.id);
  return {
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? NaN) * 100)])),
    jsBytes: scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    jsFiles: scripts.length,
    metrics: {
      fcp: lhr.audits['first-contentful-paint']?.numericValue,
      lcp: lhr.audits['largest-contentful-paint']?.numericValue,
      tbt: lhr.audits['total-blocking-time']?.numericValue,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue,
      si: lhr.audits['speed-index']?.numericValue,
    },
    failed,
    broken,
    // For whoever works on the bundle: what was downloaded and what it cost to run.
    scriptFiles: scripts.map((item) => ({ url: item.url.replace(/^https?:\/\/[^/]+/, ''), transferSize: item.transferSize })),
    bootup: (lhr.audits['bootup-time']?.details?.items ?? []).map((item) => ({
      url: item.url,
      scripting: Math.round(item.scripting),
      total: Math.round(item.total),
    })),
    // The main thread's long tasks (as simulated on the phone): what makes the blocking time.
    longTasks: (lhr.audits['long-tasks']?.details?.items ?? []).map((item) => ({
      url: item.url,
      start: Math.round(item.startTime),
      duration: Math.round(item.duration),
    })),
    mainThread: Object.fromEntries((lhr.audits['mainthread-work-breakdown']?.details?.items ?? []).map((item) => [item.group, Math.round(item.duration)])),
    lcpElement: findSnippet(lhr.audits['lcp-breakdown-insight']?.details),
    consoleErrors: (lhr.audits['errors-in-console']?.details?.items ?? []).map((item) => item.description),
  };
}

const WEB_VITALS = readFileSync(createRequire(import.meta.url).resolve('web-vitals') /* its UMD build: a `webVitals` global in a page */, 'utf8');

/** What the first tap is on: a FAQ question and a duration card of the platform page. */
const FIRST_TAPS = [
  { name: 'FAQ question', selector: '[data-testid="faq-item"] [data-testid="faq-question"]' },
  { name: 'duration', selector: '[data-testid="duration-option"]:last-child' },
];

/**
 * The first tap's INP, in ms: a fresh incognito page on a throttled phone, the control tapped as
 * soon as DOMContentLoaded has fired, INP read from web-vitals (loaded before the page's scripts).
 */
async function firstTapInp(browser, url, selector) {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
    await page.emulateCPUThrottling(4);
    await page.evaluateOnNewDocument(`${WEB_VITALS};
      window.__inp = [];
      webVitals.onINP((metric) => window.__inp.push(metric.value), { reportAllChanges: true });`);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const target = await page.waitForSelector(selector, { visible: true });
    await target.tap();
    await page.waitForFunction(() => globalThis.__inp.length > 0, { timeout: 15_000 });
    return Math.max(...(await page.evaluate(() => globalThis.__inp)));
  } finally {
    await context.close();
  }
}

/** The first DOM node snippet in an audit's details (where Lighthouse names the LCP element). */
function findSnippet(value) {
  if (!value || typeof value !== 'object') return undefined;
  if (value.type === 'node' && value.snippet) return value.snippet;
  for (const child of Object.values(value)) {
    const found = findSnippet(child);
    if (found) return found;
  }
  return undefined;
}

function summarize(runs) {
  const pick = (get) => median(runs.map(get));
  return {
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, pick((run) => run.scores[id])])),
    jsBytes: pick((run) => run.jsBytes),
    jsFiles: pick((run) => run.jsFiles),
    metrics: Object.fromEntries(Object.keys(runs[0].metrics).map((key) => [key, pick((run) => run.metrics[key])])),
    failed: [...new Set(runs.flatMap((run) => run.failed))],
    broken: [...new Set(runs.flatMap((run) => run.broken))],
  };
}

const fmtMs = (value) => (Number.isFinite(value) ? `${Math.round(value)} ms` : '-');

async function main() {
  const { fromSource } = ensureBuilt();
  const shop = await startShop({ fromSource });
  const reference = WITH_REFERENCE ? await startReference(shop.url) : undefined;
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  const results = [];
  const inp = [];
  try {
    for (const formFactor of FORM_FACTORS) {
      for (const page of PAGES) {
        const ours = [];
        const ref = [];
        for (let run = 0; run < RUNS; run += 1) {
          // Interleaved, so a busy moment of the machine hits both alike.
          ours.push(await audit(chrome, `${shop.url}${page}`, formFactor));
          if (reference) ref.push(await audit(chrome, `${reference.url}${page}`, formFactor));
          process.stdout.write('.');
        }
        results.push({ formFactor, page, ours: summarize(ours), reference: reference ? summarize(ref) : undefined, runs: { ours, reference: ref } });
      }
    }
    chrome.kill();
    const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROME_FLAGS.slice(1) });
    try {
      for (const tap of FIRST_TAPS) {
        const values = [];
        for (let run = 0; run < RUNS; run += 1) {
          values.push(await firstTapInp(browser, `${shop.url}${PAGES[1]}`, tap.selector));
          process.stdout.write('.');
        }
        inp.push({ ...tap, values, median: median(values) });
      }
    } finally {
      await browser.close();
    }
  } finally {
    chrome.kill();
    await reference?.close();
    await shop.stop();
  }

  console.log(
    `\n\nLighthouse 13, median of ${RUNS} run(s) each, Chromium at ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'}${fromSource ? ' (server from sources)' : ''}`,
  );
  console.log('reference = the same first HTML without the app JavaScript, from a bare node:http server\n');
  const rows = results.map(({ formFactor, page, ours, reference: ref }) => ({
    page: `${formFactor.padEnd(7)} ${page}`,
    perf: ours.scores.performance,
    a11y: ours.scores.accessibility,
    bp: ours.scores['best-practices'],
    seo: ours.scores.seo,
    'JS gzip': `${(ours.jsBytes / 1024).toFixed(1)} KiB / ${ours.jsFiles} files`,
    FCP: fmtMs(ours.metrics.fcp),
    LCP: fmtMs(ours.metrics.lcp),
    TBT: fmtMs(ours.metrics.tbt),
    CLS: Number.isFinite(ours.metrics.cls) ? ours.metrics.cls.toFixed(3) : '-',
    'ref perf': ref ? ref.scores.performance : '-',
    'perf ratio': ref ? (ours.scores.performance / ref.scores.performance).toFixed(2) : '-',
  }));
  console.table(rows);
  for (const { formFactor, page, ours } of results) {
    if (ours.failed.length) console.log(`${formFactor} ${page}: audits not passed in some run: ${ours.failed.join(', ')}`);
    if (ours.broken.length) console.log(`${formFactor} ${page}: FAILED REQUESTS (numbers not valid): ${ours.broken.join(', ')}`);
  }
  const sample = results[0]?.runs.ours[0];
  if (sample) {
    console.log(`\nfirst-load scripts (${results[0].formFactor} ${results[0].page}, first run):`);
    for (const file of sample.scriptFiles) console.log(`  ${(file.transferSize / 1024).toFixed(1).padStart(7)} KiB  ${file.url}`);
    const scripting = sample.bootup.reduce((sum, item) => sum + item.scripting, 0);
    console.log(`  largest contentful paint element: ${sample.lcpElement ?? '-'}`);
    console.log(`  main-thread scripting time (throttled): ${scripting} ms`);
  }
  console.log(`\nfirst tap's Interaction to Next Paint, ${PAGES[1]}, 390×844 phone, 4× CPU, tapped at DOMContentLoaded (web-vitals onINP), median of ${RUNS}:`);
  for (const tap of inp) console.log(`  ${tap.name.padEnd(14)} ${fmtMs(tap.median)}  (runs: ${tap.values.map((value) => Math.round(value)).join(', ')} ms)`);
  console.log('targets: mobile performance >= 95; accessibility, best practices and SEO 100; first-tap INP <= 200 ms');

  const dir = path.join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ pages: results, firstTapInp: inp }, null, 2));
  console.log(`details: ${path.relative(ROOT, file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
