import { expect } from 'chai';
import { CATALOG_ENGLISH_MESSAGES } from '@subshare/core/validation';
import { createPlatformBody } from '../../packages/core/src/wire/catalog-admin.js';
import {
  EMPTY_EDITOR,
  formatAmount,
  parseAmount,
  priceKey,
  toWireBody,
  validateEditor,
  withRuleFromMail,
  type EditorValues,
} from '../../packages/web/src/features/admin/catalog/editorForm.js';

/** The error at a form path (`prices.<cell>.eur.price`), as Formik reads it. */
const at = (errors: unknown, ...path: string[]) =>
  path.reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined), errors);

const both = (en: string, ko = `${en} (ko)`) => ({ en, ko });

/** A form a real admin would fill: one duration, one type, their prices as typed. */
function filled(overrides: Partial<EditorValues> = {}): EditorValues {
  return {
    ...EMPTY_EDITOR,
    name: both('Streamy'),
    description: both('A streaming platform.'),
    howItWorks: [both('Pay'), both('Watch')],
    faq: [{ question: both('Is it legal?'), answer: both('Yes.') }],
    logoBase: '/media/uploads/abc.svg',
    logoCarousel: '/media/uploads/abc.svg',
    durations: [{ key: '7', id: 7, name: both('1 month'), months: '1', isEnabled: true, hasOrders: true }],
    types: [{ key: 'new-1', name: both('Premium'), isEnabled: true, hasOrders: false }],
    prices: { [priceKey('7', 'new-1')]: { eur: { price: '5.99', salePrice: '4.99' }, krw: { price: '8900', salePrice: '6900' } } },
    ...overrides,
  };
}

/**
 * The catalog editor's form converts what the admin types (EUR with cents, KRW whole won) to the
 * wire's minor units and checks it with the server's own schema, each error on its field.
 */
describe('web: the catalog editor form', () => {
  it('reads EUR with cents and KRW in whole won as minor units, exactly', () => {
    expect(parseAmount('4.99', 'EUR')).to.equal(499);
    expect(parseAmount('4,99', 'EUR')).to.equal(499);
    expect(parseAmount('0.29', 'EUR')).to.equal(29);
    expect(parseAmount('5', 'EUR')).to.equal(500);
    expect(parseAmount('5.5', 'EUR')).to.equal(550);
    expect(parseAmount('4.995', 'EUR')).to.equal(499.5);
    expect(parseAmount('6900', 'KRW')).to.equal(6900);
    expect(parseAmount('6900.5', 'KRW')).to.equal(6900.5);
    // Commas group thousands; a lone EUR comma with one or two digits after it is the decimal comma.
    expect(parseAmount('6,900', 'KRW')).to.equal(6900);
    expect(parseAmount('1,234,500', 'KRW')).to.equal(1234500);
    expect(parseAmount('1,234.50', 'EUR')).to.equal(123450);
    expect(parseAmount('1,234', 'EUR')).to.equal(123400);
    expect(parseAmount('6,9', 'KRW')).to.be.NaN;
    expect(parseAmount('', 'KRW')).to.equal(undefined);
    expect(parseAmount('abc', 'EUR')).to.be.NaN;
    expect(formatAmount(499, 'EUR')).to.equal('4.99');
    expect(formatAmount(500, 'EUR')).to.equal('5.00');
    expect(formatAmount(6900, 'KRW')).to.equal('6900');
  });

  it('a filled form is a body the server accepts, with prices in minor units', () => {
    const values = filled();
    expect(validateEditor(values, CATALOG_ENGLISH_MESSAGES)).to.deep.equal({});
    const { body } = toWireBody(values);
    expect(createPlatformBody.isValidSync(body)).to.equal(true);
    expect(body.prices).to.deep.equal([{ durationKey: '7', typeKey: 'new-1', eur: { price: 599, salePrice: 499 }, krw: { price: 8900, salePrice: 6900 } }]);
    expect(body.durations[0]).to.deep.equal({ key: '7', id: 7, name: both('1 month'), months: 1, isEnabled: true });
    expect(body.types[0]).to.not.have.property('id');
  });

  it('puts each error on its field: a Korean name, a KRW amount with decimals, a sale price above the price, a missing price', () => {
    const values = filled({
      name: both('Streamy', ''),
      prices: { [priceKey('7', 'new-1')]: { eur: { price: '4.99', salePrice: '5.99' }, krw: { price: '8900.5', salePrice: '' } } },
    });
    const errors = validateEditor(values, CATALOG_ENGLISH_MESSAGES);
    expect(at(errors, 'name', 'ko')).to.equal(CATALOG_ENGLISH_MESSAGES.required);
    const cell = at(errors, 'prices', priceKey('7', 'new-1'));
    expect(at(cell, 'eur', 'salePrice')).to.equal(CATALOG_ENGLISH_MESSAGES.saleAbovePrice);
    expect(at(cell, 'krw', 'price')).to.equal(CATALOG_ENGLISH_MESSAGES.krwWhole);
    expect(at(cell, 'krw', 'salePrice')).to.equal(CATALOG_ENGLISH_MESSAGES.required);
    // The server refuses the same body.
    expect(createPlatformBody.isValidSync(toWireBody(values).body)).to.equal(false);
  });

  it('a disabled pair without prices is left out; an enabled one without prices is an error at its cells', () => {
    const types = [
      { key: 'new-1', name: both('Premium'), isEnabled: true, hasOrders: false },
      { key: 'new-2', name: both('Basic'), isEnabled: false, hasOrders: false },
    ];
    expect(toWireBody(filled({ types })).body.prices).to.have.length(1);
    const errors = validateEditor(
      filled({ types: [...types, { key: 'new-3', name: both('Family'), isEnabled: true, hasOrders: false }] }),
      CATALOG_ENGLISH_MESSAGES,
    );
    expect(at(errors, 'prices', priceKey('7', 'new-3'), 'eur', 'price')).to.equal(CATALOG_ENGLISH_MESSAGES.required);
  });

  it('refuses a key or months twice among durations, and a key or id twice among types, at the second item', () => {
    const errors = validateEditor(
      filled({
        durations: [
          { key: 'a', name: both('1 month'), months: '1', isEnabled: true, hasOrders: false },
          { key: 'a', name: both('Also 1 month'), months: '1', isEnabled: true, hasOrders: false },
        ],
        types: [
          { key: 't', id: 3, name: both('Premium'), isEnabled: true, hasOrders: false },
          { key: 't', id: 3, name: both('Basic'), isEnabled: true, hasOrders: false },
        ],
        prices: {},
      }),
      CATALOG_ENGLISH_MESSAGES,
    );
    expect(at(errors, 'durations', '1', 'key')).to.equal(CATALOG_ENGLISH_MESSAGES.duplicateKey);
    expect(at(errors, 'durations', '1', 'months')).to.equal(CATALOG_ENGLISH_MESSAGES.duplicateMonths);
    expect(at(errors, 'types', '1', 'key')).to.equal(CATALOG_ENGLISH_MESSAGES.duplicateKey);
    expect(at(errors, 'types', '1', 'id')).to.equal(CATALOG_ENGLISH_MESSAGES.duplicateKey);
    expect(at(errors, 'durations', '0', 'key')).to.equal(undefined);
  });

  it('a cell typed in part (Formik creates it with the first amount) is read with the rest empty', () => {
    const values = filled({ prices: { [priceKey('7', 'new-1')]: { eur: { price: '5' } } as never } });
    expect(at(validateEditor(values, CATALOG_ENGLISH_MESSAGES), 'prices', priceKey('7', 'new-1'), 'krw', 'salePrice')).to.equal(
      CATALOG_ENGLISH_MESSAGES.required,
    );
  });
});

describe('catalog editor: a rule made from an unclassified mail (issue 33)', () => {
  const rules = { ...EMPTY_EDITOR, alertSenders: 'netflix.com', alertRules: [{ kind: 'passwordChanged', subject: 'password has been changed', body: '' }] };

  it("appends an ignore rule whose subject phrase is the mail's subject, and keeps a sender a listed domain covers", () => {
    const made = withRuleFromMail(rules, { subject: "  What's new on   Netflix ", sender: 'Info@Account.Netflix.com' });
    expect(made.alertRules).to.deep.equal([...rules.alertRules, { kind: 'ignore', subject: "What's new on Netflix", body: '' }]);
    expect(made.alertSenders).to.equal('netflix.com');
  });

  it('adds a sender no listed one covers, and makes nothing from an empty subject', () => {
    expect(withRuleFromMail(rules, { subject: 'Hello', sender: 'news@netflixmail.example' }).alertSenders).to.equal('netflix.com\nnews@netflixmail.example');
    expect(withRuleFromMail(rules, { subject: '   ', sender: 'news@netflixmail.example' })).to.equal(rules);
  });
});
