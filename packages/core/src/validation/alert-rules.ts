/**
 * A platform's account-alert rules (issue 29): how the shop recognises, in an account's mailbox,
 * the platform's own mail saying the account is in trouble. Data kept with the platform
 * (`platforms.alert_rules`), edited in the catalog editor; this schema is shared by the server
 * and the editor's form so both refuse the same input.
 *
 * Patterns are plain phrases, matched case-insensitively on whitespace-folded text, not regular
 * expressions: staff type them, and a phrase cannot hang the watcher the way a regular
 * expression with catastrophic backtracking can.
 */
import * as yup from 'yup';

/** What an alert mail says happened. `ignore`: known mail that says nothing of health (codes, links, receipts). */
export const ALERT_KINDS = ['passwordChanged', 'onHold', 'newSignIn', 'planChanged', 'planCancelled', 'memberRemoved', 'ignore'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** An account's health: ok, attention (staff should look), broken (buyers cannot use it). */
export const ACCOUNT_HEALTH_STATES = ['ok', 'attention', 'broken'] as const;
export type AccountHealthState = (typeof ACCOUNT_HEALTH_STATES)[number];

/**
 * What each kind does to the account, one entry per kind so that a new kind has to decide.
 * Password changed, on hold and cancelled lock the buyers out: broken. A new sign-in, a changed
 * plan or a removed member may be harmless (staff themselves, a planned change): attention.
 */
export const ALERT_KIND_HEALTH = {
  passwordChanged: 'broken',
  onHold: 'broken',
  planCancelled: 'broken',
  newSignIn: 'attention',
  planChanged: 'attention',
  memberRemoved: 'attention',
  ignore: undefined,
} as const satisfies Record<AlertKind, AccountHealthState | undefined>;

export interface AlertRule {
  kind: AlertKind;
  /** The rule matches when the subject holds one of these phrases (none: the subject is not looked at). */
  subject: string[];
  /** …and the body holds one of these (none: the body is not looked at). At least one list is non-empty. */
  body: string[];
}

export interface AlertRules {
  /** Who the platform's mail comes from: a full address, or a domain (`netflix.com`, which also covers its subdomains). */
  senders: string[];
  /**
   * The hosts a household or verification link in the platform's mail may point at (`www.netflix.com`),
   * exact names, lower case (issue 33): a link to any other host is dropped, never shown to a buyer.
   */
  linkHosts: string[];
  /** Tried in order; the first that matches decides. */
  rules: AlertRule[];
}

export const NO_ALERT_RULES: AlertRules = { senders: [], linkHosts: [], rules: [] };

/** Rules as stored: those written before link hosts existed have none (no link is handed out until staff add them). */
export function storedAlertRules(stored: Partial<AlertRules> | null | undefined): AlertRules {
  return { senders: stored?.senders ?? [], linkHosts: stored?.linkHosts ?? [], rules: stored?.rules ?? [] };
}

export const ALERT_RULE_LIMITS = { senders: 10, sender: 254, linkHosts: 10, linkHost: 253, rules: 40, phrases: 10, phrase: 200 } as const;

export interface AlertRuleMessages {
  required: string;
  sender: string;
  linkHost: string;
  kind: string;
  phrase: string;
  needsPhrase: string;
  tooMany: (max: number) => string;
  tooLong: (max: number) => string;
}

export const ALERT_RULE_ENGLISH_MESSAGES: AlertRuleMessages = {
  required: 'This field is required.',
  sender: 'Enter an e-mail address or a domain, such as netflix.com.',
  linkHost: 'Enter a host name, such as www.netflix.com.',
  kind: `Choose one of: ${ALERT_KINDS.join(', ')}.`,
  phrase: 'A phrase must not be empty.',
  needsPhrase: 'A rule needs at least one subject or body phrase.',
  tooMany: (max) => `At most ${max}.`,
  tooLong: (max) => `Use at most ${max} characters.`,
};

/** An address (`a@b.c`) or a domain (`b.c`), lower case. */
const SENDER_PATTERN = /^([a-z0-9._%+-]+@)?([a-z0-9-]+\.)+[a-z]{2,}$/;
/** A host name (`www.netflix.com`), lower case. */
const HOST_PATTERN = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/;

const phrases = (m: AlertRuleMessages) =>
  yup
    .array(yup.string().trim().required(m.phrase).min(1, m.phrase).max(ALERT_RULE_LIMITS.phrase, m.tooLong(ALERT_RULE_LIMITS.phrase)))
    .required(m.required)
    .max(ALERT_RULE_LIMITS.phrases, m.tooMany(ALERT_RULE_LIMITS.phrases));

export const alertRulesSchema = (m: AlertRuleMessages = ALERT_RULE_ENGLISH_MESSAGES) =>
  yup.object({
    senders: yup
      .array(
        yup.string().trim().lowercase().required(m.sender).max(ALERT_RULE_LIMITS.sender, m.tooLong(ALERT_RULE_LIMITS.sender)).matches(SENDER_PATTERN, m.sender),
      )
      .required(m.required)
      .max(ALERT_RULE_LIMITS.senders, m.tooMany(ALERT_RULE_LIMITS.senders)),
    linkHosts: yup
      .array(
        yup
          .string()
          .trim()
          .lowercase()
          .required(m.linkHost)
          .max(ALERT_RULE_LIMITS.linkHost, m.tooLong(ALERT_RULE_LIMITS.linkHost))
          .matches(HOST_PATTERN, m.linkHost),
      )
      .default([])
      .max(ALERT_RULE_LIMITS.linkHosts, m.tooMany(ALERT_RULE_LIMITS.linkHosts)),
    rules: yup
      .array(
        yup
          .object({
            kind: yup
              .string()
              .required(m.kind)
              .oneOf([...ALERT_KINDS], m.kind) as unknown as yup.StringSchema<AlertKind>,
            subject: phrases(m),
            body: phrases(m),
          })
          .required(m.required)
          .test('needs-phrase', m.needsPhrase, (rule) => !rule || rule.subject.length + rule.body.length > 0),
      )
      .required(m.required)
      .max(ALERT_RULE_LIMITS.rules, m.tooMany(ALERT_RULE_LIMITS.rules)),
  });
