/**
 * /jve/promos (issue 37, admins): the promotion codes with what each has given, a form that
 * creates a code or changes the one being edited, and a button per row that deactivates (or
 * activates) it. The server computes every discount and holds every limit; this page only says
 * what staff set. Texts in promos/texts.ts (English and Korean).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Button, Field, Flex, Heading, Input, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { Form, Formik, useField } from 'formik';
import * as yup from 'yup';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { injectSaga } from '../../../app/sagaInjector';
import { FormField } from '../../../components/ui/FormField';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import type { CreatePromo, PromoCode } from '../../../services/api/promoScreens';
import { selectUser } from '../../auth/selectors';
import { ROLES } from '../../auth/session';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { useValidationMessages } from '../../language/useValidationMessages';
import { AdminSection } from '../components/AdminSection';
import { ConfirmDialog, type ConfirmRequest } from '../components/ConfirmDialog';
import { ListBody } from '../components/ListBody';
import { formatMediumDate } from '../format';
import { formatMoney } from '../money';
import { promosPageSaga } from './saga';
import { promoCreateRequested, promoEditStarted, promosOpened, promoUpdateRequested, selectPromosPage } from './slice';
import { PROMO_TEXTS } from './texts';

injectSaga('promosPage', promosPageSaga);

export default function PromosPage() {
  const t = useT(PROMO_TEXTS);
  const isAdmin = (useAppSelector(selectUser)?.role ?? ROLES.user) >= ROLES.admin;
  if (!isAdmin) return <AdminSection testId="admin-promos-admins-only" title={t('promos.adminsOnly')} />;
  return <PromosScreen />;
}

function PromosScreen() {
  const t = useT(PROMO_TEXTS);
  const dispatch = useAppDispatch();
  const page = useAppSelector(selectPromosPage);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);

  useEffect(() => {
    dispatch(promosOpened());
  }, [dispatch]);

  const toggle = (code: PromoCode) => {
    if (!code.active) {
      dispatch(promoUpdateRequested({ id: code.id, active: true }));
      return;
    }
    setConfirm({
      title: t('promos.confirmTitle', { code: code.code }),
      text: t('promos.confirmText'),
      confirmLabel: t('promos.confirmOk'),
      danger: true,
      onConfirm: () => dispatch(promoUpdateRequested({ id: code.id, active: false })),
    });
  };

  const headers = [
    t('promos.col.code'),
    t('promos.col.discount'),
    t('promos.col.window'),
    t('promos.col.limits'),
    t('promos.col.use'),
    t('promos.col.granted'),
    t('promos.col.state'),
    t('promos.col.action'),
  ];
  const editing = page.codes.find((code) => code.id === page.editing) ?? null;
  return (
    <AdminSection testId="admin-promos" title={t('promos.title')} data={{ 'data-status': page.status }}>
      <Stack gap="6">
        <PromoForm editing={editing} />
        <ListBody
          testId="admin-promos-table"
          caption={t('promos.title')}
          status={page.status}
          headers={headers}
          rowCount={page.codes.length}
          emptyText={t('promos.empty')}
        >
          {page.codes.map((code) => (
            <PromoRow key={code.id} code={code} busy={page.saving} onEdit={() => dispatch(promoEditStarted(code.id))} onToggle={() => toggle(code)} />
          ))}
        </ListBody>
      </Stack>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </AdminSection>
  );
}

/** The form's values: text inputs as typed; `toBody` turns them into the call's body. */
interface PromoFormValues {
  code: string;
  kind: 'percent' | 'fixed';
  percentOff: string;
  amountEur: string;
  amountKrw: string;
  startsAt: string;
  endsAt: string;
  totalLimit: string;
  perBuyerLimit: string;
  firstOrderOnly: boolean;
  platformIds: string;
  durationIds: string;
  note: string;
}

const IDS = /^\s*(\d+\s*(,\s*\d+\s*)*)?$/;
const idsOf = (text: string): number[] | null => (text.trim() === '' ? null : text.split(',').map((part) => Number(part.trim())));
const numberOrNull = (text: string): number | null => (text.trim() === '' ? null : Number(text));
/** `datetime-local` values are the admin's local time; the server keeps instants. */
const instantOrNull = (text: string): string | null => (text ? new Date(text).toISOString() : null);
const localInput = (iso: string | null): string => {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

function valuesOf(code: PromoCode | null): PromoFormValues {
  const amount = (currency: 'EUR' | 'KRW') => String(code?.amounts.find((entry) => entry.currencyCode === currency)?.amount ?? '');
  return {
    code: code?.code ?? '',
    kind: code && code.percentOff === null ? 'fixed' : 'percent',
    percentOff: code && code.percentOff !== null ? String(code.percentOff) : '',
    amountEur: amount('EUR'),
    amountKrw: amount('KRW'),
    startsAt: localInput(code?.startsAt ?? null),
    endsAt: localInput(code?.endsAt ?? null),
    totalLimit: code && code.totalLimit !== null ? String(code.totalLimit) : '',
    perBuyerLimit: code ? (code.perBuyerLimit !== null ? String(code.perBuyerLimit) : '') : '1',
    firstOrderOnly: code?.firstOrderOnly ?? false,
    platformIds: code?.platformIds?.join(', ') ?? '',
    durationIds: code?.durationIds?.join(', ') ?? '',
    note: code?.note ?? '',
  };
}

function toBody(values: PromoFormValues): Omit<CreatePromo, 'code'> {
  const percent = values.kind === 'percent';
  const amounts = {
    ...(values.amountEur.trim() ? { EUR: Number(values.amountEur) } : {}),
    ...(values.amountKrw.trim() ? { KRW: Number(values.amountKrw) } : {}),
  };
  return {
    percentOff: percent ? Number(values.percentOff) : null,
    amounts: percent ? null : amounts,
    startsAt: instantOrNull(values.startsAt),
    endsAt: instantOrNull(values.endsAt),
    totalLimit: numberOrNull(values.totalLimit),
    perBuyerLimit: numberOrNull(values.perBuyerLimit),
    firstOrderOnly: values.firstOrderOnly,
    platformIds: idsOf(values.platformIds),
    durationIds: idsOf(values.durationIds),
    note: values.note.trim() || null,
  };
}

function PromoForm({ editing }: { editing: PromoCode | null }) {
  const t = useT(PROMO_TEXTS);
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const { saving, error, saves } = useAppSelector(selectPromosPage);
  const title = useRef<HTMLHeadingElement>(null);
  const editingId = editing?.id ?? null;
  useEffect(() => {
    // The form sits above the list: on a phone a row's Edit button is screens below it, so the
    // form would fill out of sight. Bring its title into view and move focus there.
    if (editingId === null) return;
    title.current?.scrollIntoView({ block: 'center' });
    title.current?.focus({ preventScroll: true });
  }, [editingId]);
  const schema = useMemo(() => {
    const count = yup.string().matches(/^\s*(\d*)\s*$/, t('promos.invalidNumber'));
    return yup.object({
      code: yup
        .string()
        .required(messages.required)
        .matches(/^[A-Za-z0-9_-]{3,32}$/, t('promos.codeHelp')),
      kind: yup.string().oneOf(['percent', 'fixed']),
      percentOff: yup.string().when('kind', {
        is: 'percent',
        then: (rule) => rule.required(messages.required).matches(/^(?:[1-9]|[1-9]\d)$/, t('promos.invalidNumber')),
      }),
      amountEur: yup.string().matches(/^\s*(\d+(\.\d{1,2})?)?\s*$/, t('promos.invalidNumber')),
      amountKrw: yup.string().matches(/^\s*(\d+)?\s*$/, t('promos.invalidNumber')),
      totalLimit: count,
      perBuyerLimit: count,
      platformIds: yup.string().matches(IDS, t('promos.invalidIds')),
      durationIds: yup.string().matches(IDS, t('promos.invalidIds')),
      note: yup.string().max(200),
    });
  }, [messages, t]);
  return (
    <Box borderWidth="1px" borderRadius="md" p="4">
      <Heading as="h2" size="md" mb="3" ref={title} tabIndex={-1} data-testid="admin-promo-form-title">
        {editing ? t('promos.editTitle', { code: editing.code }) : t('promos.new')}
      </Heading>
      {/* A new key after each save or another code to edit starts the form afresh. */}
      <Formik
        key={`${saves}-${editing?.id ?? 'new'}`}
        initialValues={valuesOf(editing)}
        validationSchema={schema}
        onSubmit={(values, helpers) => {
          const body = toBody(values);
          if (values.kind === 'fixed' && Object.keys(body.amounts ?? {}).length === 0) {
            helpers.setFieldError('amountEur', t('promos.pickKind'));
            return;
          }
          if (editing) dispatch(promoUpdateRequested({ id: editing.id, ...body }));
          else dispatch(promoCreateRequested({ code: values.code.trim(), ...body }));
        }}
      >
        {({ values }) => (
          <Form noValidate data-testid="admin-promo-form" aria-label={editing ? t('promos.editTitle', { code: editing.code }) : t('promos.new')}>
            <Stack gap="3">
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
                <FormField
                  name="code"
                  label={t('promos.code')}
                  testId="admin-promo-code"
                  helperText={t('promos.codeHelp')}
                  disabled={editing !== null}
                  required
                />
                <FormField
                  type="select"
                  name="kind"
                  label={t('promos.kind')}
                  testId="admin-promo-kind"
                  options={[
                    { value: 'percent', label: t('promos.kind.percent') },
                    { value: 'fixed', label: t('promos.kind.fixed') },
                  ]}
                />
                {values.kind === 'percent' ? (
                  <FormField name="percentOff" inputMode="numeric" label={t('promos.percentOff')} testId="admin-promo-percent" required />
                ) : (
                  <>
                    <FormField
                      name="amountEur"
                      inputMode="decimal"
                      label={t('promos.amountEur')}
                      testId="admin-promo-eur"
                      helperText={t('promos.amountHelp')}
                    />
                    <FormField name="amountKrw" inputMode="numeric" label={t('promos.amountKrw')} testId="admin-promo-krw" />
                  </>
                )}
                <DateField name="startsAt" label={t('promos.startsAt')} testId="admin-promo-starts" />
                <DateField name="endsAt" label={t('promos.endsAt')} testId="admin-promo-ends" />
                <FormField name="totalLimit" inputMode="numeric" label={t('promos.totalLimit')} testId="admin-promo-total" />
                <FormField name="perBuyerLimit" inputMode="numeric" label={t('promos.perBuyerLimit')} testId="admin-promo-per-buyer" />
                <FormField name="platformIds" label={t('promos.platformIds')} testId="admin-promo-platforms" />
                <FormField name="durationIds" label={t('promos.durationIds')} testId="admin-promo-durations" />
              </SimpleGrid>
              <FormField type="checkbox" name="firstOrderOnly" label={t('promos.firstOrderOnly')} testId="admin-promo-first" />
              <FormField name="note" label={t('promos.note')} testId="admin-promo-note" />
              <Text fontSize="sm" color="fg.muted">
                {t('promos.cap')}
              </Text>
              <Flex gap="3">
                <Button type="submit" data-testid="admin-promo-submit" colorPalette="purple" loading={saving}>
                  {editing ? t('promos.save') : t('promos.create')}
                </Button>
                {editing && (
                  <Button data-testid="admin-promo-cancel" variant="outline" onClick={() => dispatch(promoEditStarted(null))}>
                    {t('promos.cancel')}
                  </Button>
                )}
              </Flex>
            </Stack>
          </Form>
        )}
      </Formik>
      {error && (
        <Box data-testid="admin-promo-error" role="alert" mt="3" p="3" borderRadius="md" bg="bg.error" color="fg.error">
          {error}
        </Box>
      )}
    </Box>
  );
}

/** A date and time in the admin's own zone: FormField has no `datetime-local` kind. */
function DateField({ name, label, testId }: { name: 'startsAt' | 'endsAt'; label: string; testId: string }) {
  const [field] = useField<string>(name);
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <Input {...field} value={field.value ?? ''} type="datetime-local" data-testid={testId} size="lg" />
    </Field.Root>
  );
}

function PromoRow({ code, busy, onEdit, onToggle }: { code: PromoCode; busy: boolean; onEdit: () => void; onToggle: () => void }) {
  const t = useT(PROMO_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  const discount =
    code.percentOff !== null ? `${code.percentOff} %` : code.amounts.map((amount) => formatMoney(amount.amount, amount.currencyCode, culture)).join(' / ');
  const window = [
    code.startsAt && t('promos.from', { date: formatMediumDate(code.startsAt, culture) }),
    code.endsAt && t('promos.until', { date: formatMediumDate(code.endsAt, culture) }),
  ]
    .filter(Boolean)
    .join(' ');
  const limits = [
    code.totalLimit !== null && t('promos.total', { count: code.totalLimit }),
    code.perBuyerLimit !== null && t('promos.perBuyer', { count: code.perBuyerLimit }),
    code.firstOrderOnly && t('promos.firstOnly'),
    code.platformIds && t('promos.platformsOnly', { ids: code.platformIds.join(', ') }),
    code.durationIds && t('promos.durationsOnly', { ids: code.durationIds.join(', ') }),
  ].filter(Boolean);
  const granted = code.granted.map((amount) => formatMoney(amount.amount, amount.currencyCode, culture)).join(' / ');
  return (
    <Table.Row data-testid="admin-promo-row" data-code={code.code} data-active={String(code.active)}>
      {/* The code and its discount stay on one line each: on a phone the table scrolls sideways,
          and a code broken into pieces of three letters is hard to read out to a buyer. */}
      <Table.Cell fontFamily="mono" fontWeight="semibold" whiteSpace="nowrap">
        {code.code}
        {code.note && (
          <Text fontFamily="body" fontWeight="normal" fontSize="xs" color="fg.muted" whiteSpace="normal">
            {code.note}
          </Text>
        )}
      </Table.Cell>
      <Table.Cell data-testid="admin-promo-discount" whiteSpace="nowrap">
        {discount}
      </Table.Cell>
      <Table.Cell minW="28">{window || t('promos.always')}</Table.Cell>
      <Table.Cell minW="32">{limits.length > 0 ? limits.join(', ') : t('promos.none')}</Table.Cell>
      <Table.Cell data-testid="admin-promo-use">{`${code.redeemed} (${code.paidRedemptions})`}</Table.Cell>
      <Table.Cell data-testid="admin-promo-granted">{granted || '—'}</Table.Cell>
      <Table.Cell>
        <StatusBadge tone={code.active ? 'green' : 'gray'} testId="admin-promo-state">
          {code.active ? t('promos.active') : t('promos.inactive')}
        </StatusBadge>
      </Table.Cell>
      <Table.Cell>
        <Flex gap="2">
          <Button data-testid="admin-promo-edit" size="xs" variant="outline" aria-label={t('promos.editLabel', { code: code.code })} onClick={onEdit}>
            {t('promos.edit')}
          </Button>
          <Button
            data-testid="admin-promo-toggle"
            size="xs"
            variant="outline"
            colorPalette={code.active ? 'red' : 'green'}
            loading={busy}
            aria-label={t(code.active ? 'promos.deactivateLabel' : 'promos.activateLabel', { code: code.code })}
            onClick={onToggle}
          >
            {t(code.active ? 'promos.deactivate' : 'promos.activate')}
          </Button>
        </Flex>
      </Table.Cell>
    </Table.Row>
  );
}
