/**
 * 11 accountBroken, to staff alert addresses: an account turned broken (what broke it, where its
 * buyers went), or (offSale) every active account of a platform is broken, so it is off sale.
 */
import { EMAIL_KIND } from '../../email-kinds.js';
import { accountHealthButton, emailTemplate, facts, paragraph } from '../parts.js';

const en = {
  broken: {
    subject: (platform: string, account: string, email: string) => `Account broken: ${platform} #${account} (${email})`,
    preheader: (moved: number, waiting: number) => `${moved} buyers moved, ${waiting} waiting for a slot.`,
    heading: (platform: string) => `A ${platform} account is broken`,
    what: (account: string, email: string) =>
      `The platform's own mail says account #${account} (${email}) no longer works. Its buyers are being moved to healthy accounts.`,
    labels: {
      kind: 'What happened',
      subject: 'Mail subject',
      sender: 'Sender',
      received: 'Received',
      moved: 'Buyers moved',
      waiting: 'Buyers waiting for a slot',
    },
    someWait:
      'Some buyers could not be moved: there is no free slot on a healthy account. Add an account or repair this one; they are moved as soon as a slot is free.',
    allMoved: 'Every buyer has a new slot. Repair the account, then set it back to ok in the admin area.',
  },
  offSale: {
    subject: (platform: string) => `Off sale: every ${platform} account is broken`,
    preheader: (platform: string, accounts: number) => `${platform} is off sale until one of its ${accounts} accounts is healthy again.`,
    heading: (platform: string) => `${platform} is off sale`,
    what: (platform: string, accounts: number, since: string) =>
      `All ${accounts} active ${platform} accounts are broken since ${since}. The storefront says so on the platform's page and takes no new orders.`,
    back: 'Repair an account and set it back to ok, or add one: the platform goes back on sale by itself.',
  },
};

const ko: typeof en = {
  broken: {
    subject: (platform, account, email) => `계정 고장: ${platform} #${account} (${email})`,
    preheader: (moved, waiting) => `구매자 ${moved}명 이동, ${waiting}명 대기 중.`,
    heading: (platform) => `${platform} 계정에 문제가 생겼습니다`,
    what: (account, email) => `플랫폼에서 보낸 메일에 따르면 계정 #${account} (${email})을 더 이상 사용할 수 없습니다. 구매자를 정상 계정으로 옮기고 있습니다.`,
    labels: {
      kind: '내용',
      subject: '메일 제목',
      sender: '보낸 사람',
      received: '받은 시각',
      moved: '이동한 구매자',
      waiting: '빈 자리를 기다리는 구매자',
    },
    someWait: '정상 계정에 빈 자리가 없어 옮기지 못한 구매자가 있습니다. 계정을 추가하거나 이 계정을 복구하면 바로 옮겨집니다.',
    allMoved: '모든 구매자가 새 자리로 옮겨졌습니다. 계정을 복구한 뒤 관리자 화면에서 정상으로 되돌려 주세요.',
  },
  offSale: {
    subject: (platform) => `판매 중지: ${platform}의 모든 계정에 문제가 생겼습니다`,
    preheader: (platform, accounts) => `${platform} 계정 ${accounts}개 중 하나가 정상으로 돌아올 때까지 판매가 중지됩니다.`,
    heading: (platform) => `${platform} 판매 중지`,
    what: (platform, accounts, since) =>
      `${since}부터 ${platform}의 활성 계정 ${accounts}개가 모두 고장 상태입니다. 스토어의 플랫폼 페이지에 안내가 표시되고 새 주문을 받지 않습니다.`,
    back: '계정을 복구해 정상으로 되돌리거나 새 계정을 추가하면 자동으로 다시 판매됩니다.',
  },
};

export const accountBroken = emailTemplate(EMAIL_KIND.accountBroken, { en, ko }, (data, t, words) => {
  const platform = t.text(data.platformName, 'platformName');
  if (data.offSale) {
    const w = words.offSale;
    return {
      subject: w.subject(platform),
      preheader: w.preheader(platform, data.accounts),
      heading: w.heading(platform),
      blocks: [paragraph(w.what(platform, data.accounts, t.date(data.since, 'since'))), paragraph(w.back), accountHealthButton(t, data.adminUrl)],
    };
  }
  const w = words.broken;
  const account = t.id(data.accountId, 'accountId');
  const email = t.text(data.accountEmail, 'accountEmail');
  return {
    subject: w.subject(platform, account, email),
    preheader: w.preheader(data.moved, data.waiting),
    heading: w.heading(platform),
    blocks: [
      paragraph(w.what(account, email)),
      facts(
        [w.labels.kind, t.text(data.kind, 'kind')],
        [w.labels.subject, t.text(data.subject, 'subject')],
        [w.labels.sender, t.text(data.sender, 'sender')],
        [w.labels.received, t.date(data.receivedAt, 'receivedAt')],
        [w.labels.moved, String(data.moved)],
        [w.labels.waiting, String(data.waiting)],
      ),
      paragraph(data.waiting > 0 ? w.someWait : w.allMoved),
      accountHealthButton(t, data.adminUrl),
    ],
  };
});
