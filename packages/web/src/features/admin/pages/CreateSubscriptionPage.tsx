/**
 * /jve/createsubscriber (spec section 2, "Admin area"): a platform account ("subscription") with
 * its slots. Left, the mailboxes of the chosen platform with their e-mail and password, and (for
 * admins) a button that makes a new one; right, the form: platform (choosing it fills the slots
 * from the platform and lists its mailboxes), login e-mail, password (6–18), slots (1–20) and the
 * forwarding e-mail (spec section 5, the rules the server applies too). After success: 'Subscribe
 * is created!!!' and a fresh form; a failure's text shows in the snackbar.
 */
import { useEffect, useMemo } from 'react';
import { Box, Button, Grid, Heading, HStack, Spinner, Stack, Text, chakra } from '@chakra-ui/react';
import { LIMITS, platformAccountSchema } from '@subshare/core/validation';
import { Form, Formik, useFormikContext } from 'formik';
import * as yup from 'yup';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import type { Mailbox } from '../../../services/api/admin';
import { ROLES } from '../../auth/session';
import { selectUser } from '../../auth/selectors';
import { useValidationMessages } from '../../language/useValidationMessages';
import { AdminSection } from '../components/AdminSection';
import { idOf } from '../format';
import { selectCreate } from '../selectors';
import { createPageClosed, createPageOpened, mailboxCreateRequested, platformChosen, subscriptionSubmitted, type CreateState } from '../slice';
import { ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

interface FormValues {
  platformId: string;
  email: string;
  password: string;
  slotsCount: string;
  femail: string;
}

const EMPTY: FormValues = { platformId: '', email: '', password: '', slotsCount: '', femail: '' };

export default function CreateSubscriptionPage() {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const create = useAppSelector(selectCreate);
  const isAdmin = (useAppSelector(selectUser)?.role ?? ROLES.user) >= ROLES.admin;
  const messages = useValidationMessages();
  const schema = useMemo(() => {
    const slots = t('admin.slotsInvalid');
    return platformAccountSchema(messages).shape({
      slotsCount: yup.number().typeError(slots).required(messages.required).integer(slots).min(LIMITS.slots.min, slots).max(LIMITS.slots.max, slots),
    });
  }, [messages, t]);

  useEffect(() => {
    dispatch(createPageOpened());
    return () => {
      dispatch(createPageClosed());
    };
  }, [dispatch]);

  return (
    <AdminSection testId="admin-create-subscription" title={t('admin.createTitle')} data={{ 'data-platforms': create.platformsStatus }}>
      {/* A new key after each success: the form starts afresh (spec section 2). */}
      <Formik
        key={create.resets}
        initialValues={EMPTY}
        validationSchema={schema}
        onSubmit={(values) => {
          const payload = schema.cast(values);
          dispatch(
            subscriptionSubmitted({
              platformId: payload.platformId,
              email: payload.email,
              password: payload.password,
              slotsCount: payload.slotsCount,
              femail: payload.femail,
            }),
          );
        }}
      >
        <Grid templateColumns={{ base: '1fr', lg: 'minmax(0, 1fr) minmax(0, 1fr)' }} gap="8" alignItems="start">
          <MailboxList create={create} isAdmin={isAdmin} />
          <SubscriptionForm create={create} isAdmin={isAdmin} />
        </Grid>
      </Formik>
    </AdminSection>
  );
}

function MailboxList({ create, isAdmin }: { create: CreateState; isAdmin: boolean }) {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const { setFieldValue } = useFormikContext<FormValues>();
  const { platformId, mailboxes, mailboxesStatus } = create;

  return (
    <Box
      as="section"
      aria-labelledby="admin-mailboxes-heading"
      data-testid="admin-mailboxes"
      data-status={mailboxesStatus}
      data-platform-id={platformId ?? undefined}
      data-count={mailboxes.length}
      borderWidth="1px"
      borderRadius="lg"
      p="5"
    >
      <HStack justify="space-between" gap="3" wrap="wrap" mb="4">
        <Heading as="h2" id="admin-mailboxes-heading" size="lg">
          {t('admin.mailboxes')}
        </Heading>
        {isAdmin && platformId !== null && (
          <Button
            data-testid="admin-mailbox-create"
            size="sm"
            variant="outline"
            colorPalette="purple"
            loading={create.creatingMailbox}
            onClick={() => dispatch(mailboxCreateRequested())}
          >
            {t('admin.newMailbox')}
          </Button>
        )}
      </HStack>
      {platformId === null ? (
        <Text data-testid="admin-mailboxes-hint" color="fg.muted">
          {t('admin.mailboxesHint')}
        </Text>
      ) : mailboxesStatus === 'loading' ? (
        <HStack role="status" gap="3" color="fg.muted">
          <Spinner size="sm" />
          <Text>{t('admin.loading')}</Text>
        </HStack>
      ) : mailboxesStatus === 'failed' ? (
        <Text data-testid="admin-mailboxes-failed" role="alert" color="fg.error">
          {t('admin.mailboxesFailed')}
        </Text>
      ) : mailboxes.length === 0 ? (
        <Text data-testid="admin-mailboxes-empty" color="fg.muted">
          {t('admin.noMailboxes')}
        </Text>
      ) : (
        <chakra.ul m="0" p="0" listStyleType="none" display="flex" flexDirection="column" gap="3">
          {mailboxes.map((mailbox) => (
            <MailboxItem key={mailbox.id} mailbox={mailbox} onUse={() => void setFieldValue('email', mailbox.email)} />
          ))}
        </chakra.ul>
      )}
    </Box>
  );
}

function MailboxItem({ mailbox, onUse }: { mailbox: Mailbox; onUse: () => void }) {
  const t = useT(ADMIN_TEXTS);
  return (
    <chakra.li data-testid="admin-mailbox" data-mailbox-id={mailbox.id} borderWidth="1px" borderRadius="md" p="3">
      <HStack justify="space-between" align="start" gap="3">
        <chakra.dl m="0" display="grid" gridTemplateColumns="auto minmax(0, 1fr)" columnGap="3" rowGap="1" fontSize="sm">
          <chakra.dt color="fg.muted">{t('admin.mailboxEmail')}</chakra.dt>
          <chakra.dd data-testid="admin-mailbox-email" m="0" fontWeight="semibold" overflowWrap="anywhere">
            {mailbox.email}
          </chakra.dd>
          <chakra.dt color="fg.muted">{t('admin.mailboxPassword')}</chakra.dt>
          <chakra.dd data-testid="admin-mailbox-password" m="0" fontFamily="mono" overflowWrap="anywhere">
            {mailbox.password}
          </chakra.dd>
        </chakra.dl>
        <Button data-testid="admin-mailbox-use" size="xs" variant="ghost" aria-label={t('admin.useMailboxLabel', { email: mailbox.email })} onClick={onUse}>
          {t('admin.useMailbox')}
        </Button>
      </HStack>
    </chakra.li>
  );
}

function SubscriptionForm({ create, isAdmin }: { create: CreateState; isAdmin: boolean }) {
  const t = useT(ADMIN_TEXTS);
  const dispatch = useAppDispatch();
  const { setFieldValue } = useFormikContext<FormValues>();
  const options = create.platforms.map((platform) => ({ value: String(platform.id), label: platform.name }));

  const choosePlatform = (value: string) => {
    const id = idOf(value);
    const platform = create.platforms.find((candidate) => candidate.id === id);
    // Spec section 2: the platform's slots fill slotsCount.
    if (platform) void setFieldValue('slotsCount', String(platform.slotsCount));
    dispatch(platformChosen(platform ? platform.id : null));
  };

  return (
    <Form noValidate data-testid="admin-create-form" aria-label={t('admin.createTitle')}>
      <Stack gap="4">
        {!isAdmin && (
          <Text data-testid="admin-create-admin-only" role="note" p="3" borderRadius="md" bg="bg.muted" fontSize="sm">
            {t('admin.adminOnly')}
          </Text>
        )}
        {create.platformsStatus === 'failed' && (
          <Text data-testid="admin-platforms-failed" role="alert" color="fg.error">
            {t('admin.platformsFailed')}
          </Text>
        )}
        <FormField
          type="select"
          name="platformId"
          label={t('admin.platform')}
          testId="admin-create-platform"
          placeholder={t('admin.choosePlatform')}
          options={options}
          required
          onValueChange={choosePlatform}
        />
        <FormField name="email" type="email" label={t('admin.accountEmail')} testId="admin-create-email" autoComplete="off" inputMode="email" required />
        <FormField
          name="password"
          type="password"
          label={t('admin.accountPassword')}
          testId="admin-create-password"
          autoComplete="new-password"
          required
          passwordToggle={{ show: t('admin.showPassword'), hide: t('admin.hidePassword') }}
        />
        <FormField
          name="slotsCount"
          label={t('admin.slotsCount')}
          testId="admin-create-slots"
          inputMode="numeric"
          helperText={t('admin.slotsHelp')}
          required
          normalize={(value) => value.replace(/\D/g, '')}
        />
        <FormField name="femail" type="email" label={t('admin.femail')} testId="admin-create-femail" autoComplete="off" inputMode="email" required />
        <Button type="submit" data-testid="admin-create-submit" colorPalette="purple" size="lg" loading={create.submitting} disabled={!isAdmin}>
          {t('admin.create')}
        </Button>
      </Stack>
    </Form>
  );
}
