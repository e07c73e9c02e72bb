/**
 * What an audit entry says, for people: its action as words ("Order refunded", "주문 환불"), and
 * its details as labelled lines (amounts in the order's currency, roles by name, the catalog's
 * changed fields) with the free-text reason on a line of its own. The raw JSON stays the record:
 * it is the row's tooltip, and a key no rule here knows is shown as `key: value`.
 */
import type { Translate } from '../../language/texts.js';
import { formatMoney } from '../money.js';
import type { AuditTextKey } from './texts.js';

/** Minor-unit digits by currency: KRW has none (product.md "Money"). */
const MINOR_DIGITS: Record<string, number> = { EUR: 2, KRW: 0 };

/**
 * The order lines are shown in: PostgreSQL's jsonb keeps keys in its own order (shortest first),
 * not the order they were written in. Keys not listed follow in the stored order.
 */
const LINE_ORDER = [
  'orderId',
  'userId',
  'email',
  'kindName',
  'kind',
  'roleBefore',
  'roleAfter',
  'shownBefore',
  'shownAfter',
  'changed',
  'provider',
  'paidMinor',
  'feeMinor',
  'refundMinor',
  'overrideWindow',
  'windowEndsAt',
  'refundId',
  'providerRefundId',
  'manualReference',
];

const ROLE_KEYS: Record<number, AuditTextKey> = { 0: 'audit.role.0', 1: 'audit.role.1', 2: 'audit.role.2' };

export interface AuditDetailLine {
  key: string;
  label: string;
  value: string;
}

export interface AuditDetailsView {
  lines: AuditDetailLine[];
  /** The staff member's own words (a refund's reason), shown apart from the figures. */
  reason: string | null;
}

/** The action's label; an action this version does not know is shown as recorded. */
export function actionLabel(action: string, t: Translate<AuditTextKey>): string {
  const key = `audit.actions.${action}` as AuditTextKey;
  const label = t(key);
  return label === key ? action : label;
}

/** The object's kind in words ("Platform account"); a kind this version does not know is shown as recorded. */
export function targetTypeLabel(type: string, t: Translate<AuditTextKey>): string {
  const key = `audit.targetTypes.${type}` as AuditTextKey;
  const label = t(key);
  return label === key ? type : label;
}

function money(minor: number, currency: string, culture: string): string {
  const digits = MINOR_DIGITS[currency] ?? 2;
  return formatMoney(minor / 10 ** digits, currency, culture);
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The details of one entry as lines; `culture` formats amounts (ko-KR, en-GB…). */
export function describeDetails(action: string, details: unknown, t: Translate<AuditTextKey>, culture: string): AuditDetailsView {
  const record = typeof details === 'object' && details !== null && !Array.isArray(details) ? (details as Record<string, unknown>) : {};
  const lines: AuditDetailLine[] = [];
  const label = (key: string) => {
    const textKey = `audit.field.${key}` as AuditTextKey;
    const text = t(textKey);
    return text === textKey ? key : text;
  };
  const add = (key: string, value: string) => lines.push({ key, label: label(key), value });
  const currency = typeof record.currency === 'string' ? record.currency : null;
  let reason: string | null = null;

  for (const [key, value] of Object.entries(record)) {
    if (key === 'reason') {
      reason = typeof value === 'string' && value.trim() ? value : null;
    } else if (key === 'currency' && currency) {
      continue; // every amount below is shown in it
    } else if (key.endsWith('Minor') && typeof value === 'number' && currency) {
      add(key, money(value, currency, culture));
    } else if (action === 'user.role' && (key === 'before' || key === 'after') && typeof value === 'number') {
      add(key === 'before' ? 'roleBefore' : 'roleAfter', ROLE_KEYS[value] ? t(ROLE_KEYS[value]) : String(value));
    } else if ((key === 'before' || key === 'after') && typeof value === 'object') {
      // A catalog save keeps the whole platform before and after; the changed fields say what moved.
      if (action === 'catalog.platform_enable' && value && 'isEnabled' in value) {
        add(key === 'before' ? 'shownBefore' : 'shownAfter', t((value as { isEnabled: boolean }).isEnabled ? 'audit.shown' : 'audit.hidden'));
      } else if (action === 'catalog.logo_upload' && key === 'after' && value) {
        add('logo', scalar((value as { url?: unknown }).url));
      }
    } else if (key === 'changed' && Array.isArray(value)) {
      add(key, value.map(String).join(', ') || '—');
    } else if (typeof value === 'boolean') {
      add(key, t(value ? 'audit.yes' : 'audit.no'));
    } else {
      add(key, scalar(value));
    }
  }
  const rank = (key: string) => {
    const index = LINE_ORDER.indexOf(key);
    return index === -1 ? LINE_ORDER.length : index;
  };
  // A stable sort: keys of equal rank (the unlisted ones) keep their stored order.
  return { lines: [...lines].sort((a, b) => rank(a.key) - rank(b.key)), reason };
}
