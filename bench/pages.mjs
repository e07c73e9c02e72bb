/* global document */
// The buyer's panel and the admin pages in Chromium: how long from navigation until the page
// shows its content (the panel's lists, the dashboard's figures, the first rows of a list),
// median of several runs, each in a fresh incognito context (nothing cached, as a buyer who
// opens the link in an e-mail). The shop holds a few paid and activated orders of the demo
// catalog, bought through the demo provider, so the panel shows credentials and the lists rows.
//
// Reference, measured in the same run in the same browser: a bare node:http page whose script
// adds an element after one request, i.e. what navigation, one script and one request cost on
// this machine now. "ratio" is ours / reference, so machine noise cancels out in part.
// `--waterfall` prints, for one run of each page, when each request started and ended (ms after
// navigation): the chunk chain and the API calls. The API's own time (server side, no browser)
// is printed for the calls these pages make.
//
// `--against=<dir>`: another checkout of the shop (e.g. `git archive <commit>` unpacked, its
// node_modules linked, built with `node scripts/ensure-built.mjs`), started beside this one and
// measured in the same runs, interleaved: before and after a change on the same machine load.
//
//   npm run bench:pages [-- --runs=5 --waterfall --against=/tmp/subshare-before]
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { benchArgs, callApi as call, ensureBuilt, fillShop, median, startShop } from './shop.mjs';

const args = benchArgs();
const RUNS = Number(args.get('runs') ?? 5);
const WATERFALL = args.has('waterfall');
const PROFILE = args.has('profile');
const AGAINST = args.get('against');
const ADMIN = { email: 'bench-admin@subshare.localhost', password: 'bench-Admin-pw-1' };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The bare reference: a page whose script asks one JSON answer and then shows an element. */
async function startReference() {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>reference</title></head><body><div id="root"></div>' +
    '<script type="module">fetch("/data").then((r) => r.json()).then((d) => { const el = document.createElement("p"); el.dataset.ready = "1"; el.textContent = d.text; document.getElementById("root").append(el); });</script></body></html>';
  const server = http.createServer((req, res) => {
    if (req.url === '/data') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: 'ready' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** ms from navigation start until `ready` (a CSS selector) is on the page, in a fresh context. */
async function timeTo(browser, { url, path, ready, login }, waterfall) {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 1366, height: 900 });
    if (login) {
      await page.goto(`${url}/robots.txt`);
      await page.evaluate((stored) => {
        localStorage.setItem('subshare.user', stored);
        localStorage.setItem('subshare.languageId', '1');
      }, JSON.stringify(login));
    }
    const profiler = waterfall && PROFILE ? await page.createCDPSession() : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 100 });
      await profiler.send('Profiler.start');
    }
    await page.goto(`${url}${path}`, { waitUntil: 'domcontentloaded' });
    const handle = await page.waitForFunction((selector) => document.querySelector(selector) && performance.now(), { polling: 'raf', timeout: 30_000 }, ready);
    const ms = await handle.jsonValue();
    if (profiler) printProfile(path, (await profiler.send('Profiler.stop')).profile);
    if (waterfall) {
      const entries = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((entry) => ({ name: entry.name, start: entry.startTime, end: entry.responseEnd })),
      );
      console.log(`\n  waterfall of ${path} (content at ${Math.round(ms)} ms):`);
      for (const entry of entries.sort((a, b) => a.start - b.start)) {
        const name = new URL(entry.name).pathname + new URL(entry.name).search;
        console.log(`    ${String(Math.round(entry.start)).padStart(5)} → ${String(Math.round(entry.end)).padStart(5)}  ${name}`);
      }
    }
    return ms;
  } finally {
    await context.close();
  }
}

/** Where the main thread's time went until the content showed (`--waterfall --profile`): per script and the top functions, by self time. */
function printProfile(path, profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));
  const byScript = new Map();
  const byFunction = new Map();
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber, columnNumber } = nodes.get(id).callFrame;
    const script = url ? new URL(url).pathname : `(${functionName || 'native'})`;
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    const name = `${functionName || '(anonymous)'} ${script}:${lineNumber + 1}:${columnNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  const top = (map, count) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count);
  console.log(`  main-thread self time of ${path}, by script:`);
  for (const [name, ms] of top(byScript, 12)) console.log(`    ${ms.toFixed(1).padStart(7)} ms  ${name}`);
  console.log('  top functions:');
  for (const [name, ms] of top(byFunction, 15)) console.log(`    ${ms.toFixed(1).padStart(7)} ms  ${name}`);
}

/** The server's own time for one API call, median of `runs`. */
async function apiTime(url, path, token, runs = 7) {
  const times = [];
  for (let n = 0; n < runs; n += 1) {
    const start = performance.now();
    await call(url, path, { token });
    times.push(performance.now() - start);
  }
  return median(times);
}

const { fromSource } = ensureBuilt();
const shop = await startShop({ fromSource, admin: ADMIN });
// The other version runs its own server and web build from its own directory.
const other = AGAINST ? await (await import(path.resolve(AGAINST, 'bench/shop.mjs'))).startShop({ admin: ADMIN }) : null;
const reference = await startReference();
const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
/** The pages to measure on one shop, logged in as its admin, after filling it. */
async function pagesOf(target, label) {
  const admin = await call(target.url, '/api/user/authenticate', { body: ADMIN });
  // The admin is the buyer here: one login for the panel and the admin pages.
  await fillShop(target.url, { staffToken: admin.token, buyer: admin });
  const login = {
    id: admin.id,
    token: admin.token,
    tokenExpiration: admin.tokenExpiration,
    photoUrl: null,
    role: admin.role,
    isEmailVerified: true,
    email: ADMIN.email,
  };
  const url = target.url;
  return {
    admin,
    pages: [
      {
        name: `${label}buyer panel /user/{id}`,
        url,
        path: `/user/${admin.id}`,
        ready: '[data-testid="page-user-panel"][data-status="loaded"] [data-testid="panel-active-item"]',
        login,
      },
      { name: `${label}admin dashboard /jve`, url, path: '/jve', ready: '[data-testid="admin-home"][data-status="loaded"]', login },
      {
        name: `${label}admin orders /jve/orders/2`,
        url,
        path: '/jve/orders/2',
        ready: '[data-testid="admin-orders"][data-status="loaded"] [data-testid="admin-order-row"]',
        login,
      },
      { name: `${label}admin users /jve/users`, url, path: '/jve/users', ready: '[data-testid="admin-users"][data-status="loaded"]', login },
    ],
  };
}

try {
  const { admin, pages: ours } = await pagesOf(shop, other ? 'this:  ' : '');
  const theirs = other ? (await pagesOf(other, 'other: ')).pages : [];
  // Interleaved: each page of this version, then the same page of the other.
  const pages = ours.flatMap((page, index) => (theirs[index] ? [page, theirs[index]] : [page]));
  const referencePage = { name: 'reference (bare page, one request)', url: reference.url, path: '/', ready: '[data-ready]' };

  const times = new Map([referencePage, ...pages].map((page) => [page.name, []]));
  // One warm-up of each (the server's first answers, Chromium's caches of nothing), not counted.
  for (const page of [referencePage, ...pages]) await timeTo(browser, page, WATERFALL);
  for (let run = 0; run < RUNS; run += 1) {
    for (const page of [referencePage, ...pages]) times.get(page.name).push(await timeTo(browser, page, false));
  }

  const ref = median(times.get(referencePage.name));
  console.log(
    `\nload average ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores; median of ${RUNS} runs`,
  );
  console.log('page'.padEnd(47), 'content (ms)'.padStart(13), 'min'.padStart(7), 'max'.padStart(7), 'ratio'.padStart(7));
  for (const [name, list] of times) {
    const value = median(list);
    console.log(
      name.padEnd(47),
      String(Math.round(value)).padStart(13),
      String(Math.round(Math.min(...list))).padStart(7),
      String(Math.round(Math.max(...list))).padStart(7),
      (value / ref).toFixed(1).padStart(7),
    );
  }

  console.log('\nAPI (server time as seen by a local client, median of 7):');
  for (const path of [
    `/api/user/getuserpanel?id=${admin.id}&languageId=1`,
    '/api/admin/dashboard',
    '/api/order/getbystate?state=2&page=1&languageId=1',
    '/api/order/getorderspages?state=2',
    '/api/user/getusers?page=1',
    '/api/user/getuserspages',
  ]) {
    const value = await apiTime(shop.url, path, admin.token).catch((error) => `failed: ${error.message.slice(0, 80)}`);
    console.log(`  ${path.padEnd(55)} ${typeof value === 'number' ? `${value.toFixed(1)} ms` : value}`);
  }
} finally {
  await browser.close();
  await reference.close();
  await shop.stop();
  await other?.stop();
}
