/**
 * Won (and euros) written one way (issue 35, item 7): "₩54,100", "€4.99", in both languages, by
 * the one formatter (@subshare/core/storefront `formatMoney`) that the storefront, the panel, the
 * admin area, the e-mails and the renewal links' pages use. The second test fails when code writes
 * an amount another way: "54,100원", "54,100 KRW", or an Intl currency format of its own. (The
 * CLI's tables keep "4.99 EUR" columns for operators and scripts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { money } from '@subshare/core';
import { formatMoney } from '@subshare/core/storefront';
import { moneyLabel } from '../../packages/core/src/flows/order-access.js';
import { formatPrice } from '../../packages/web/src/features/catalog/rules.js';
import { formatMoney as adminMoney } from '../../packages/web/src/features/admin/money.js';

const PACKAGES = path.resolve(import.meta.dirname, '../../packages');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'dist-server'].includes(entry.name) ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('money written one way', () => {
  it('writes the symbol before the number, thousands grouped, KRW whole and EUR with cents', () => {
    expect(formatMoney(54100, 'KRW')).to.equal('₩54,100');
    expect(formatMoney(1234567, 'KRW')).to.equal('₩1,234,567');
    expect(formatMoney(0, 'KRW')).to.equal('₩0');
    expect(formatMoney(4.99, 'EUR')).to.equal('€4.99');
    expect(formatMoney(1234.5, 'EUR')).to.equal('€1,234.50');
    expect(formatMoney(-0.75, 'EUR')).to.equal('-€0.75');
    // The same in every place that shows an amount: e-mails, storefront, admin.
    expect(moneyLabel(money(54100, 'KRW'))).to.equal('₩54,100');
    expect(moneyLabel(money(499, 'EUR'))).to.equal('€4.99');
    expect(formatPrice(54100, 'KRW', 'ko')).to.equal('₩54,100');
    expect(formatPrice(4.99, 'EUR', 'en')).to.equal('€4.99');
    expect(adminMoney(54100, 'KRW', 'ko-KR')).to.equal('₩54,100');
    expect(adminMoney(54100, 'KRW', 'en-US')).to.equal('₩54,100');
  });

  it('has no other way of writing an amount in the code of the web app and the server (e-mails, pages)', () => {
    const others: string[] = [];
    for (const file of ['web/src', 'core/src', 'http/src'].flatMap((dir) => sourceFiles(path.join(PACKAGES, dir)))) {
      const source = readFileSync(file, 'utf8');
      const where = path.relative(PACKAGES, file);
      // Intl's currency style: its form depends on the locale and the Node version.
      if (/style:\s*['"]currency['"]/.test(source)) others.push(`${where}: Intl currency format`);
      // An amount followed by 원 or by the currency code, in a template or text ("${amount}원", "${price} KRW").
      if (/\}\s?원|\}\s(?:KRW|EUR)\b|\d\s?원\b/.test(source)) others.push(`${where}: an amount with 원 or a code after it`);
      // An amount followed by its currency's code from a variable ("${amount} ${currencyCode}"): only the formatter's fallback for an unknown currency may.
      if (where !== path.join('core', 'src', 'storefront', 'index.ts') && /\}\s\$\{[\w.]*(?:code|currency|Code|Currency)\b/.test(source))
        others.push(`${where}: an amount with its currency code after it`);
    }
    expect(others).to.deep.equal([]);
  });
});
