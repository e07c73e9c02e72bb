import { expect } from 'chai';
import {
  ALERT_KIND_HEALTH,
  alertRulesSchema,
  classifyAlert,
  SHIPPED_ALERT_RULES,
  shippedAlertRules,
  type AlertRules,
  type ShippedAlertRuleSet,
} from '@subshare/core';
import {
  ALERT_MAIL_KINDS,
  alertMail,
  googleSecurityAlert,
  lookalike,
  newsletterMail,
  RECEIPT_RULES,
  receiptMail,
  RECEIPTS,
  unknownPlatformMail,
} from '../support/alert-mails.js';
import { openAiMail } from '../support/mailboxes.js';

const address = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from;
const verdictOf = (mail: { from: string; subject: string; text?: string }, rules: AlertRules, readForBuyers = false) =>
  classifyAlert({ from: address(mail.from), subject: mail.subject, text: mail.text ?? '', readForBuyers }, rules);

describe('account-alert rules (the shipped data and the classifier)', () => {
  const platforms = Object.keys(SHIPPED_ALERT_RULES) as ShippedAlertRuleSet[];

  for (const platform of platforms) {
    it(`${platform}: each alert kind, in English and Korean, is recognised as that kind`, () => {
      const rules = SHIPPED_ALERT_RULES[platform] as unknown as AlertRules;
      for (const lang of ['en', 'ko'] as const) {
        for (const kind of ALERT_MAIL_KINDS) {
          expect(verdictOf(alertMail(platform, kind, 'acct@mail.localhost', lang), rules), `${platform} ${lang} ${kind}`).to.equal(kind);
        }
      }
      // Another sender with the very same words says nothing; a mail no rule knows is unrecognised;
      // the platform's newsletter (its unsubscribe line) is ignored, in both languages.
      expect(verdictOf(lookalike(alertMail(platform, 'passwordChanged', 'acct@mail.localhost')), rules)).to.equal(undefined);
      expect(verdictOf(unknownPlatformMail(platform, 'acct@mail.localhost'), rules)).to.equal('unrecognised');
      for (const lang of ['en', 'ko'] as const) expect(verdictOf(newsletterMail(platform, 'acct@mail.localhost', lang), rules), lang).to.equal('ignore');
    });
  }

  it("Google's security alert breaks on a changed password and only warns on a new sign-in, in English and Korean", () => {
    const rules = SHIPPED_ALERT_RULES.youtube as unknown as AlertRules;
    for (const lang of ['en', 'ko'] as const) {
      expect(verdictOf(googleSecurityAlert('passwordChanged', 'acct@mail.localhost', lang), rules), lang).to.equal('passwordChanged');
      expect(verdictOf(googleSecurityAlert('newSignIn', 'acct@mail.localhost', lang), rules), lang).to.equal('newSignIn');
      // The same subject naming another event is no known alert: listed for staff, never a break.
      const other = { ...googleSecurityAlert('newSignIn', 'acct@mail.localhost', lang), text: 'Recovery email changed' };
      expect(verdictOf(other, rules), lang).to.equal('unrecognised');
    }
  });

  it('receipts from Google Play, Disney+ and OpenAI change nothing, in English and Korean', () => {
    for (const receipt of RECEIPTS) {
      const rules = SHIPPED_ALERT_RULES[RECEIPT_RULES[receipt]] as unknown as AlertRules;
      for (const lang of ['en', 'ko'] as const)
        expect(verdictOf(receiptMail(receipt, 'acct@mail.localhost', lang), rules), `${receipt} ${lang}`).to.equal('ignore');
    }
  });

  it('the shipped rules pass the editor validation, and the demo platforms carry them', () => {
    for (const platform of platforms) alertRulesSchema().validateSync(SHIPPED_ALERT_RULES[platform], { strict: true });
    expect(shippedAlertRules('orbitview')?.senders).to.deep.equal(['netflix.com']);
    expect(shippedAlertRules('quillmind')?.senders).to.include('openai.com');
    expect(shippedAlertRules('echora')).to.equal(undefined);
  });

  it('a login-code mail is ignored, never "unrecognised" (it would put the account on attention at every code)', () => {
    const rules = SHIPPED_ALERT_RULES.chatgpt as unknown as AlertRules;
    const mail = openAiMail('acct@mail.localhost', '123456');
    expect(verdictOf(mail, rules)).to.equal('ignore');
    expect(verdictOf({ ...mail, subject: 'anything' }, rules, true)).to.equal('ignore');
  });

  it('a sender domain covers its subdomains, a full address only itself', () => {
    const rules: AlertRules = {
      senders: ['netflix.com', 'payments-noreply@google.com'],
      linkHosts: [],
      rules: [{ kind: 'onHold', subject: ['on hold'], body: [] }],
    };
    expect(verdictOf({ from: 'a@account.netflix.com', subject: 'On Hold' }, rules)).to.equal('onHold');
    expect(verdictOf({ from: 'a@notnetflix.com', subject: 'On Hold' }, rules)).to.equal(undefined);
    expect(verdictOf({ from: 'payments-noreply@google.com', subject: 'on hold' }, rules)).to.equal('onHold');
    expect(verdictOf({ from: 'other@google.com', subject: 'on hold' }, rules)).to.equal(undefined);
  });

  it('a rule with subject and body phrases needs both', () => {
    const rules: AlertRules = { senders: ['x.com'], linkHosts: [], rules: [{ kind: 'planChanged', subject: ['plan'], body: ['downgraded'] }] };
    expect(verdictOf({ from: 'a@x.com', subject: 'Your plan', text: 'was  DOWNGRADED today' }, rules)).to.equal('planChanged');
    expect(verdictOf({ from: 'a@x.com', subject: 'Your plan', text: 'was upgraded' }, rules)).to.equal('unrecognised');
  });

  it('the editor refuses a bad sender, an unknown kind and a rule without phrases', () => {
    const schema = alertRulesSchema();
    expect(() => schema.validateSync({ senders: ['not a domain'], rules: [] })).to.throw(/e-mail address or a domain/);
    expect(() => schema.validateSync({ senders: [], rules: [{ kind: 'hacked', subject: ['x'], body: [] }] })).to.throw(/Choose one of/);
    expect(() => schema.validateSync({ senders: [], rules: [{ kind: 'onHold', subject: [], body: [] }] })).to.throw(/at least one subject or body phrase/);
  });

  it('broken: password changed, on hold, cancelled; attention: the rest', () => {
    expect(
      Object.entries(ALERT_KIND_HEALTH)
        .filter(([, state]) => state === 'broken')
        .map(([kind]) => kind),
    ).to.deep.equal(['passwordChanged', 'onHold', 'planCancelled']);
  });
});
