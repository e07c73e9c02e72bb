/** The staff page's texts in English and Korean (admin chunk). */
import { defineTexts } from '../../language/texts';

const en = {
  'staff.title': 'Staff',
  'staff.menu': 'Staff roles',
  'staff.adminsOnly': 'Only admins manage staff roles.',
  'staff.formTitle': 'Give a role',
  'staff.email': "User's e-mail",
  'staff.role': 'Role',
  'staff.choose': 'Choose a role',
  'staff.role.0': 'User (no staff role)',
  'staff.role.1': 'Moderator',
  'staff.role.2': 'Admin',
  'staff.save': 'Save role',
  'staff.count': 'STAFF: {count}',
  'staff.empty': 'No moderators or admins.',
  'staff.col.email': 'E-mail',
  'staff.col.name': 'Name',
  'staff.col.role': 'Role',
  'staff.col.since': 'Since',
  'staff.col.action': 'Action',
  'staff.demote': 'Make user',
  'staff.demoteLabel': 'Take the staff role of {email}',
  'staff.toModerator': 'Make moderator',
  'staff.toModeratorLabel': 'Make {email} a moderator',
  'staff.changed': '{email} is now {role}. It takes effect on their next request.',
  'staff.unchanged': '{email} is {role} already.',
  'staff.note': 'A change takes effect on the user’s next request. The last admin cannot be demoted.',
} as const;

export type StaffTextKey = keyof typeof en;

const ko: Record<StaffTextKey, string> = {
  'staff.title': '스태프',
  'staff.menu': '스태프 권한',
  'staff.adminsOnly': '스태프 권한은 관리자만 관리할 수 있습니다.',
  'staff.formTitle': '권한 부여',
  'staff.email': '사용자 이메일',
  'staff.role': '권한',
  'staff.choose': '권한 선택',
  'staff.role.0': '일반 사용자 (스태프 아님)',
  'staff.role.1': '모더레이터',
  'staff.role.2': '관리자',
  'staff.save': '권한 저장',
  'staff.count': '스태프: {count}명',
  'staff.empty': '모더레이터나 관리자가 없습니다.',
  'staff.col.email': '이메일',
  'staff.col.name': '이름',
  'staff.col.role': '권한',
  'staff.col.since': '부여일',
  'staff.col.action': '작업',
  'staff.demote': '일반 사용자로',
  'staff.demoteLabel': '{email}의 스태프 권한 해제',
  'staff.toModerator': '모더레이터로',
  'staff.toModeratorLabel': '{email}을(를) 모더레이터로 변경',
  'staff.changed': '{email}의 권한이 {role}(으)로 바뀌었습니다. 다음 요청부터 적용됩니다.',
  'staff.unchanged': '{email}은(는) 이미 {role}입니다.',
  'staff.note': '변경은 해당 사용자의 다음 요청부터 적용됩니다. 마지막 관리자는 권한을 내릴 수 없습니다.',
};

export const STAFF_TEXTS = defineTexts<StaffTextKey>(en, ko);

export const roleKey = (role: number): StaffTextKey => (role === 2 ? 'staff.role.2' : role === 1 ? 'staff.role.1' : 'staff.role.0');
