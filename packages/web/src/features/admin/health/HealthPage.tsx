/**
 * /jve/health (issue 29, staff): platform accounts by health, broken first. Each shows why (the
 * platform's mail: subject, sender, time; or staff's reason), its buyers and where they went,
 * the time they lost; staff set a repaired account back to OK with a reason, mark one broken with a
 * reason (after a confirmation: its buyers move at once), and give moved buyers their lost time in
 * one action (all audited by the server). Issue 33: each account's recent platform mails with
 * their verdicts (authenticated or not, the rule kind, the action); an unclassified one links to
 * the catalog editor with a rule prefilled from its subject and sender. Never a code, link or body.
 */
import { pagePath } from '@subshare/core/pages';
import { useEffect, useState } from 'react';
import { Box, Button, Flex, Input, Stack, Text, chakra } from '@chakra-ui/react';
import { RouterLink } from '../../../components/ui/links';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { injectSaga } from '../../../app/sagaInjector';
import { StatusBadge, type BadgeTone } from '../../../components/ui/StatusBadge';
import type { AccountHealth } from '../../../services/api/staffScreens';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { AdminSection } from '../components/AdminSection';
import { formatDateTime } from '../format';
import { accountHealthSaga } from './saga';
import { healthActed, healthOpened, selectAccountHealth } from './slice';
import { HEALTH_TEXTS, type HealthTextKey } from './texts';
import { IncidentBanners, Reports } from './Voices';

injectSaga('accountHealth', accountHealthSaga);

const TONE: Record<AccountHealth['state'], BadgeTone> = { ok: 'green', attention: 'orange', broken: 'red' };

export default function HealthPage() {
  const t = useT(HEALTH_TEXTS);
  const dispatch = useAppDispatch();
  const health = useAppSelector(selectAccountHealth);
  useEffect(() => {
    dispatch(healthOpened());
  }, [dispatch]);
  return (
    <AdminSection testId="admin-health" title={t('health.title')} data={{ 'data-status': health.status }}>
      {health.status === 'failed' ? (
        <Stack gap="3" align="start">
          <Text role="alert">{t('health.loadFailed')}</Text>
          <Button variant="outline" onClick={() => dispatch(healthOpened())}>
            {t('health.retry')}
          </Button>
        </Stack>
      ) : health.rows.length === 0 && health.status === 'loaded' ? (
        <Text color="fg.muted">{t('health.empty')}</Text>
      ) : (
        <>
          <IncidentBanners rows={health.rows} />
          <chakra.ul m="0" p="0" listStyleType="none" display="flex" flexDirection="column" gap="4">
            {health.rows.map((account) => (
              <AccountCard key={account.accountId} account={account} />
            ))}
          </chakra.ul>
        </>
      )}
    </AdminSection>
  );
}

function AccountCard({ account }: { account: AccountHealth }) {
  const t = useT(HEALTH_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  return (
    <chakra.li data-testid="admin-health-account" data-account-id={account.accountId} data-state={account.state} borderWidth="1px" borderRadius="md" p="4">
      <Flex gap="3" align="center" wrap="wrap" mb="2">
        <StatusBadge tone={TONE[account.state]} testId="admin-health-state" data={{ 'data-state': account.state }}>
          {t(`health.state.${account.state}`)}
        </StatusBadge>
        <Text data-testid="admin-health-platform" fontWeight="semibold" overflowWrap="anywhere">
          {account.platformName} · {t('health.account', { id: account.accountId, email: account.email })}
        </Text>
        {account.since ? (
          <Text color="fg.muted" fontSize="sm">
            {t('health.since', { at: formatDateTime(account.since, culture) })}
          </Text>
        ) : null}
      </Flex>
      <Cause account={account} />
      <Buyers account={account} />
      <Reports account={account} />
      <RecentMails account={account} />
      <StaffActions account={account} />
    </chakra.li>
  );
}

/** Why the account is not ok: a staff decision, buyers' reports or a platform mail. */
function Cause({ account }: { account: AccountHealth }) {
  const t = useT(HEALTH_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  const cause = account.cause;
  const kindKey = cause ? (`health.kind.${cause.kind}` as HealthTextKey) : undefined;
  return (
    <>
      {cause && account.state !== 'ok' ? (
        <Text data-testid="admin-health-cause" data-kind={cause.kind} mb="2" overflowWrap="anywhere">
          <chakra.strong>{kindKey ? t(kindKey) : cause.kind}</chakra.strong>
          {' — '}
          {cause.kind === 'staff'
            ? t('health.staff', { by: cause.by ?? '', reason: cause.reason ?? '' })
            : cause.kind === 'buyerReports'
              ? t('health.reported', { reason: cause.reason ?? '' })
              : t('health.mail', {
                  subject: cause.subject ?? '',
                  sender: cause.sender ?? '',
                  at: cause.receivedAt ? formatDateTime(cause.receivedAt, culture) : '',
                })}
        </Text>
      ) : null}
    </>
  );
}

/** The account's buyers and what became of each (moved, waiting, extended). */
function Buyers({ account }: { account: AccountHealth }) {
  const t = useT(HEALTH_TEXTS);
  return (
    <Box as="section" aria-label={`${t('health.buyers')} · #${account.accountId}`}>
      {account.buyers.length === 0 ? (
        <Text color="fg.muted" fontSize="sm">
          {t('health.noBuyers')}
        </Text>
      ) : (
        <chakra.ul m="0" pl="4" fontSize="sm">
          {account.buyers.map((buyer) => (
            <chakra.li key={buyer.subscriptionId} data-testid="admin-health-buyer" data-status={buyer.status}>
              {t(`health.buyer.${buyer.status}`, {
                id: buyer.subscriptionId,
                user: buyer.userId,
                slot: buyer.toSlot ?? buyer.slot,
                account: buyer.toAccountId ?? '',
                lost: buyer.lostMinutes ?? 0,
              })}
              {buyer.extendedMinutes !== null ? ` · ${t('health.buyer.extended', { minutes: buyer.extendedMinutes })}` : ''}
            </chakra.li>
          ))}
        </chakra.ul>
      )}
    </Box>
  );
}

/** Staff's actions on the account, each with a reason: ok, broken (confirmed once more), extend the moved buyers. */
function StaffActions({ account }: { account: AccountHealth }) {
  const t = useT(HEALTH_TEXTS);
  const dispatch = useAppDispatch();
  const last = useAppSelector(selectAccountHealth).lastAction;
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const mine = last?.accountId === account.accountId ? last : undefined;
  const canExtend = account.buyers.some((buyer) => buyer.status === 'moved' && buyer.extendedMinutes === null);
  return (
    <>
      <Flex gap="2" mt="3" wrap="wrap" align="end">
        <Input
          data-testid="admin-health-reason"
          aria-label={t('health.reason')}
          placeholder={t('health.reason')}
          value={reason}
          maxLength={500}
          onChange={(event) => setReason(event.target.value)}
          maxW="sm"
        />
        {account.state !== 'ok' ? (
          <Button
            data-testid="admin-health-set-ok"
            size="sm"
            disabled={reason.trim() === ''}
            onClick={() => dispatch(healthActed({ kind: 'setOk', accountId: account.accountId, reason: reason.trim() }))}
          >
            {t('health.setOk')}
          </Button>
        ) : null}
        {account.state !== 'broken' ? (
          <Button
            data-testid="admin-health-set-broken"
            size="sm"
            variant="outline"
            colorPalette="red"
            disabled={reason.trim() === ''}
            onClick={() => setConfirming(true)}
          >
            {t('health.setBroken')}
          </Button>
        ) : null}
        {canExtend ? (
          <Button
            data-testid="admin-health-extend"
            size="sm"
            variant="outline"
            onClick={() => dispatch(healthActed({ kind: 'extend', accountId: account.accountId }))}
          >
            {t('health.extend')}
          </Button>
        ) : null}
      </Flex>
      {confirming && account.state !== 'broken' ? (
        // Marking broken moves every buyer of the account at once: asked once more, in words.
        <Flex data-testid="admin-health-confirm-broken" role="alertdialog" aria-label={t('health.setBroken')} gap="2" mt="2" wrap="wrap" align="center">
          <Text fontSize="sm">{t('health.confirmBroken', { id: account.accountId })}</Text>
          <Button
            data-testid="admin-health-confirm-broken-yes"
            size="sm"
            colorPalette="red"
            onClick={() => {
              setConfirming(false);
              dispatch(healthActed({ kind: 'setBroken', accountId: account.accountId, reason: reason.trim() }));
            }}
          >
            {t('health.confirmBrokenYes')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            {t('health.cancel')}
          </Button>
        </Flex>
      ) : null}
      {mine ? (
        <Text data-testid="admin-health-outcome" role="status" mt="2" fontSize="sm">
          {mine.outcome === 'done' ? t('health.done') : t('health.failed', { code: mine.outcome })}
        </Text>
      ) : null}
    </>
  );
}

/** The account's newest recorded platform mails: subject, sender, time and the shop's verdicts. */
function RecentMails({ account }: { account: AccountHealth }) {
  const t = useT(HEALTH_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  return (
    <Box as="section" aria-label={`${t('health.mails')} · #${account.accountId}`} mt="3">
      <Text fontWeight="semibold" fontSize="sm" mb="1">
        {t('health.mails')}
      </Text>
      {account.mails.length === 0 ? (
        <Text color="fg.muted" fontSize="sm">
          {t('health.noMails')}
        </Text>
      ) : (
        <chakra.ul m="0" pl="4" fontSize="sm">
          {account.mails.map((mail) => {
            const kindKey = `health.kind.${mail.kind}` as HealthTextKey;
            const rule = new URLSearchParams({ ruleSubject: mail.subject, ruleSender: mail.sender });
            return (
              <chakra.li
                key={mail.id}
                data-testid="admin-health-mail"
                data-kind={mail.kind}
                data-action={mail.action ?? ''}
                data-authentication={mail.authentication ?? ''}
                overflowWrap="anywhere"
              >
                {t('health.mailLine', { subject: mail.subject, sender: mail.sender, at: formatDateTime(mail.receivedAt, culture) })}
                {' · '}
                {t(`health.auth.${mail.authentication ?? 'unchecked'}`)}
                {' · '}
                {t(kindKey)}
                {' · '}
                <chakra.strong>{t(`health.action.${mail.action ?? 'unknown'}`)}</chakra.strong>
                {mail.linkDropped ? (
                  <>
                    {' · '}
                    <chakra.span data-testid="admin-health-link-dropped">{t('health.linkDropped')}</chakra.span>
                  </>
                ) : null}
                {mail.action === 'unclassified' ? (
                  <>
                    {' · '}
                    <RouterLink data-testid="admin-health-make-rule" to={pagePath.adminPlatform(account.platformId, rule.toString())}>
                      {t('health.makeRule')}
                    </RouterLink>
                  </>
                ) : null}
              </chakra.li>
            );
          })}
        </chakra.ul>
      )}
    </Box>
  );
}
