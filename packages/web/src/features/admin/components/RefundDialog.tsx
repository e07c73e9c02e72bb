/**
 * The refund dialog (admins; opened by Refund on a paid order of the orders list or the user
 * page). It asks the server for the quote and shows what the refund policy gives: the amount
 * paid, the refund fee with its policy ("5% + €0.50"), the refund, the policy's window (open
 * until a time, or closed: the override to tick), the provider, and the earlier refunds. The
 * admin gives a reason (audited, sent to the provider) and, for CoinPal, which has no refund
 * call, the reference of the transfer they made. Confirm sends one request (disabled while it is
 * on its way); a refusal shows the server's message here and changes nothing. An order the quote
 * calls not refundable gets the reason and no Confirm.
 */
import { useEffect, useMemo } from 'react';
import { Box, Button, chakra, CloseButton, Dialog, HStack, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import { Form, Formik } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import type { RefundQuote } from '../../../services/api/admin';
import { selectLanguage } from '../../language/selectors';
import { useValidationMessages } from '../../language/useValidationMessages';
import { useT } from '../../language/useT';
import { formatDateTime, formatMoney, formatPercent } from '../format';
import { EMPTY_REFUND_FORM, REFUND_LIMITS, refundFormSchema, refundRequest, type RefundFormValues } from '../refundForm';
import { selectRefund } from '../selectors';
import { MoneyEvents } from './MoneyEvents';
import { refundDialogClosed, refundQuoteRequested, refundSubmitted, type RefundState } from '../slice';
import { adminKey, ADMIN_TEXTS } from '../texts';

export function RefundDialog() {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const refund = useAppSelector(selectRefund);
  const { orderId, submitting } = refund;

  // The page that opened the dialog is left: the dialog goes with it.
  useEffect(
    () => () => {
      dispatch(refundDialogClosed());
    },
    [dispatch],
  );

  if (orderId === null) return null;
  // While the refund is on its way the dialog stays: its answer is shown here.
  const close = () => {
    if (!submitting) dispatch(refundDialogClosed());
  };
  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && close()} placement="center" size="md" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content
            data-testid="admin-refund-dialog"
            data-order-id={orderId}
            data-status={refund.quoteStatus}
            data-refundable={refund.quote ? String(refund.quote.refundable) : undefined}
            data-submitting={submitting}
          >
            <Dialog.Header>
              <Dialog.Title>{t('admin.refundTitle', { id: orderId })}</Dialog.Title>
            </Dialog.Header>
            <RefundBody refund={refund} onClose={close} />
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('admin.close')} disabled={submitting} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function RefundBody({ refund, onClose }: { refund: RefundState; onClose: () => void }) {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const { quote } = refund;

  if (!quote) {
    return (
      <>
        <Dialog.Body>
          {refund.quoteStatus === 'failed' ? (
            <Text data-testid="admin-refund-quote-failed" role="alert" p="3" borderRadius="md" bg="bg.error" color="fg.error">
              {t('admin.refundQuoteFailed', { message: refund.quoteError ?? '' })}
            </Text>
          ) : (
            <HStack role="status" gap="3" py="4" color="fg.muted">
              <Spinner size="sm" />
              <Text>{t('admin.loading')}</Text>
            </HStack>
          )}
        </Dialog.Body>
        <Dialog.Footer>
          <Button data-testid="admin-refund-cancel" variant="outline" onClick={onClose}>
            {t('admin.cancel')}
          </Button>
          {refund.quoteStatus === 'failed' && refund.quoteRetryable && (
            <Button data-testid="admin-refund-retry" colorPalette="purple" onClick={() => dispatch(refundQuoteRequested())}>
              {t('admin.retry')}
            </Button>
          )}
        </Dialog.Footer>
      </>
    );
  }
  return quote.refundable ? (
    <RefundForm refund={refund} quote={quote} onClose={onClose} />
  ) : (
    <NotRefundable quote={quote} error={refund.error} onClose={onClose} />
  );
}

/** Why the last Confirm was refused or failed (the server's message); nothing changed on the order. */
function RefundError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Text data-testid="admin-refund-error" role="alert" p="3" borderRadius="md" bg="bg.error" color="fg.error">
      {message}
    </Text>
  );
}

/** The quote says no (a refused Confirm asks again, so its error stays beside the reason). */
function NotRefundable({ quote, error, onClose }: { quote: RefundQuote; error: string | null; onClose: () => void }) {
  const t = useT(ADMIN_TEXTS);
  const whyKey = quote.reason ? adminKey('admin.refundWhy', quote.reason) : null;
  const why = whyKey ? t(whyKey) : t('admin.refundWhyOther', { reason: quote.reason ?? '—' });
  return (
    <>
      <Dialog.Body>
        <Stack gap="4">
          <RefundError message={error} />
          <Text data-testid="admin-refund-not-refundable" data-reason={quote.reason ?? undefined} role="alert" p="3" borderRadius="md" bg="bg.muted">
            {t('admin.refundNotRefundable', { why })}
          </Text>
          <QuoteFigures quote={quote} />
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button data-testid="admin-refund-cancel" variant="outline" onClick={onClose}>
          {t('admin.close')}
        </Button>
      </Dialog.Footer>
    </>
  );
}

function RefundForm({ refund, quote, onClose }: { refund: RefundState; quote: RefundQuote; onClose: () => void }) {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const { insideWindow, manual } = quote;
  const schema = useMemo(() => refundFormSchema(messages, { insideWindow, manual }, t('admin.refundOverrideRequired')), [messages, insideWindow, manual, t]);
  const { orderId, submitting } = refund;
  const busy = submitting || refund.quoteStatus === 'loading';

  return (
    <Formik<RefundFormValues>
      initialValues={EMPTY_REFUND_FORM}
      validationSchema={schema}
      onSubmit={(values) => {
        if (orderId !== null && !busy) dispatch(refundSubmitted(refundRequest(orderId, values, quote)));
      }}
    >
      <Form noValidate>
        <Dialog.Body>
          <Stack gap="5">
            <QuoteFigures quote={quote} />
            {!insideWindow && (
              <FormField type="checkbox" name="overrideWindow" testId="admin-refund-override" label={t('admin.refundOverride')} disabled={submitting} />
            )}
            {manual && (
              <Text data-testid="admin-refund-manual-note" role="note" fontSize="sm" p="3" borderRadius="md" bg="orange.50" color="orange.900">
                {t('admin.refundManualNote')}
              </Text>
            )}
            {manual && (
              <FormField
                name="manualReference"
                testId="admin-refund-reference"
                label={t('admin.refundReference')}
                required
                disabled={submitting}
                counter={{ max: REFUND_LIMITS.manualReference.max, testId: 'admin-refund-reference-counter' }}
              />
            )}
            <FormField
              name="reason"
              testId="admin-refund-reason"
              label={t('admin.refundReason')}
              helperText={t('admin.refundReasonHelp')}
              required
              multiline={3}
              disabled={submitting}
              counter={{ max: REFUND_LIMITS.reason.max, testId: 'admin-refund-reason-counter' }}
            />
            <RefundError message={refund.error} />
          </Stack>
        </Dialog.Body>
        <Dialog.Footer>
          <Button data-testid="admin-refund-cancel" variant="outline" onClick={onClose} disabled={submitting}>
            {t('admin.cancel')}
          </Button>
          <Button data-testid="admin-refund-confirm" type="submit" colorPalette="red" loading={submitting} disabled={busy}>
            {t('admin.refundConfirm')}
          </Button>
        </Dialog.Footer>
      </Form>
    </Formik>
  );
}

/** Paid, fee (with the policy), refund, window, provider, and the refunds the order had. */
function QuoteFigures({ quote }: { quote: RefundQuote }) {
  const t = useT(ADMIN_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  const money = (value: number) => formatMoney(value, quote.currencyCode, culture);
  const policyParts = [quote.feePercent > 0 ? formatPercent(quote.feePercent, culture) : null, quote.feeFixed > 0 ? money(quote.feeFixed) : null].filter(
    (part): part is string => part !== null,
  );
  const policy = policyParts.length > 0 ? policyParts.join(' + ') : t('admin.refundNoFee');
  const providerKey = quote.provider ? adminKey('admin.provider', quote.provider) : null;
  const windowText = quote.insideWindow
    ? t('admin.refundWindowOpen', { hours: quote.windowHours, date: formatDateTime(quote.windowEndsDate, culture) })
    : quote.windowEndsDate
      ? t('admin.refundWindowClosed', { date: formatDateTime(quote.windowEndsDate, culture) })
      : t('admin.refundWindowUnknown');

  return (
    <Stack gap="4">
      <chakra.dl m="0" display="grid" gridTemplateColumns="auto minmax(0, 1fr)" columnGap="5" rowGap="2" alignItems="baseline">
        <Figure label={t('admin.refundPaid')} testId="admin-refund-paid">
          {money(quote.paid)}
        </Figure>
        <Figure label={t('admin.refundFee')} testId="admin-refund-fee">
          {t('admin.refundFeePolicy', { fee: money(quote.fee), policy })}
        </Figure>
        <Figure label={t('admin.refundAmount')} testId="admin-refund-amount" strong>
          {money(quote.refund)}
        </Figure>
        {(quote.refundAsCredit ?? 0) > 0 && (
          <Figure label={t('admin.refundAsCredit')} testId="admin-refund-as-credit">
            {t('admin.refundAsCreditSplit', {
              credit: money(quote.refundAsCredit),
              rest: money(Math.round((quote.refund - quote.refundAsCredit) * 100) / 100),
            })}
          </Figure>
        )}
        <Figure label={t('admin.refundWindow')} testId="admin-refund-window" data={{ 'data-inside': String(quote.insideWindow) }}>
          {windowText}
        </Figure>
        <Figure label={t('admin.refundProvider')} testId="admin-refund-provider" data={{ 'data-provider': quote.provider ?? undefined }}>
          {providerKey ? t(providerKey) : t('admin.provider.none')}
        </Figure>
      </chakra.dl>
      <MoneyEvents events={Array.isArray(quote.ledger) ? quote.ledger : []} />
      {quote.refunds.length > 0 && (
        <Box as="section" aria-labelledby="admin-refund-history-heading">
          <Text id="admin-refund-history-heading" fontSize="sm" fontWeight="semibold" mb="1">
            {t('admin.refundHistory')}
          </Text>
          <chakra.ul m="0" ps="5" fontSize="sm" data-testid="admin-refund-history">
            {quote.refunds.map((entry) => {
              const source = adminKey('admin.refundSource', entry.source);
              const status = adminKey('admin.refundStatus', entry.status);
              return (
                <li key={entry.id} data-testid="admin-refund-history-item" data-status={entry.status}>
                  {formatDateTime(entry.createdDate, culture)} · {source ? t(source) : entry.source} · {formatMoney(entry.amount, entry.currencyCode, culture)}{' '}
                  · {status ? t(status) : entry.status}
                  {entry.reason ? ` · ${entry.reason}` : ''}
                </li>
              );
            })}
          </chakra.ul>
        </Box>
      )}
    </Stack>
  );
}

function Figure({
  label,
  testId,
  strong,
  data,
  children,
}: {
  label: string;
  testId: string;
  strong?: boolean;
  data?: Record<`data-${string}`, string | undefined>;
  children: string;
}) {
  return (
    <>
      <chakra.dt color="fg.muted" fontSize="sm">
        {label}
      </chakra.dt>
      <chakra.dd data-testid={testId} {...data} m="0" fontWeight={strong ? 'bold' : 'medium'} fontSize={strong ? 'lg' : 'md'} overflowWrap="anywhere">
        {children}
      </chakra.dd>
    </>
  );
}
