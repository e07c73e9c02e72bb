/** The audit log screen's texts in English and Korean (admin chunk). */
import { defineTexts } from '../../language/texts';

const en = {
  'audit.title': 'Audit log',
  'audit.menu': 'Audit log',
  'audit.adminsOnly': 'Only admins read the audit log.',
  'audit.filters': 'Filter the audit log',
  'audit.actor': 'Actor (e-mail or user id)',
  'audit.action': 'Action',
  'audit.anyAction': 'Any action',
  'audit.targetType': 'Object type',
  'audit.anyTarget': 'Any object',
  'audit.targetId': 'Object id',
  'audit.apply': 'Filter',
  'audit.clear': 'Clear filters',
  'audit.count': 'ENTRIES: {count}',
  'audit.empty': 'No entries.',
  'audit.col.at': 'When',
  'audit.col.actor': 'Who',
  'audit.col.action': 'Action',
  'audit.col.target': 'Object',
  'audit.col.details': 'Details',
  'audit.col.ip': 'IP',
  'audit.reveal': 'Secret revealed',
  'audit.cli': 'operator (CLI)',
  'audit.target.order': 'Order {id}',
  'audit.target.user': 'User {id}',
  'audit.target.platform': 'Platform {id}',
  'audit.target.other': '{type} {id}',
} as const;

export type AuditTextKey = keyof typeof en;

const ko: Record<AuditTextKey, string> = {
  'audit.title': '감사 로그',
  'audit.menu': '감사 로그',
  'audit.adminsOnly': '감사 로그는 관리자만 볼 수 있습니다.',
  'audit.filters': '감사 로그 필터',
  'audit.actor': '작업자 (이메일 또는 사용자 ID)',
  'audit.action': '작업',
  'audit.anyAction': '모든 작업',
  'audit.targetType': '대상 종류',
  'audit.anyTarget': '모든 대상',
  'audit.targetId': '대상 ID',
  'audit.apply': '필터 적용',
  'audit.clear': '필터 지우기',
  'audit.count': '기록: {count}건',
  'audit.empty': '기록이 없습니다.',
  'audit.col.at': '시각',
  'audit.col.actor': '작업자',
  'audit.col.action': '작업',
  'audit.col.target': '대상',
  'audit.col.details': '세부 정보',
  'audit.col.ip': 'IP',
  'audit.reveal': '비밀 정보 열람',
  'audit.cli': '운영자 (CLI)',
  'audit.target.order': '주문 {id}',
  'audit.target.user': '사용자 {id}',
  'audit.target.platform': '플랫폼 {id}',
  'audit.target.other': '{type} {id}',
};

export const AUDIT_TEXTS = defineTexts<AuditTextKey>(en, ko);
