import { useMemo } from 'react';
import { Button, Stack, Text } from '@chakra-ui/react';
import { invitationEmailSchema } from '@subshare/core/validation';
import { Form, Formik } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useValidationMessages } from '../../language/useValidationMessages';
import { selectInvitations } from '../selectors';
import { invitationSubmitted } from '../slice';
import { PANEL_TEXTS } from '../texts';
import { useT } from '../../language/useT';
import { Note } from './ItemFrame';

/**
 * The invitation e-mail form of a waiting family-group order (spec sections 2 and 5): the
 * e-mail of the buyer's own platform login, required and valid, sent only when valid. Once
 * saved it is shown read-only instead of this form.
 */
export function InvitationForm({ orderId, platformName }: { orderId: number; platformName: string }) {
  const t = useT(PANEL_TEXTS);
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const schema = useMemo(() => invitationEmailSchema(messages), [messages]);
  const state = useAppSelector(selectInvitations)[orderId];
  const submitting = state?.status === 'submitting';

  return (
    <Stack gap="3">
      <Formik
        initialValues={{ email: '' }}
        validationSchema={schema}
        onSubmit={(values) => void dispatch(invitationSubmitted({ orderId, email: schema.cast(values).email }))}
      >
        <Form noValidate data-testid="panel-invitation-form" aria-label={t('panel.invitationLabel', { platform: platformName })}>
          <Stack gap="3" direction={{ base: 'column', md: 'row' }} align={{ base: 'stretch', md: 'flex-end' }}>
            <Stack flex="1" minW="0">
              <FormField
                name="email"
                type="email"
                label={t('panel.invitationLabel', { platform: platformName })}
                testId="panel-invitation-input"
                autoComplete="email"
                inputMode="email"
                required
                disabled={submitting}
              />
            </Stack>
            <Button type="submit" data-testid="panel-invitation-submit" colorPalette="purple" size="lg" loading={submitting}>
              {t('panel.invitationSubmit')}
            </Button>
          </Stack>
        </Form>
      </Formik>
      {state?.status === 'failed' && (
        <Text data-testid="panel-invitation-error" role="alert" color="fg.error" fontSize="sm">
          {state.message}
        </Text>
      )}
      <Note testId="panel-invitation-note">{t('panel.invitationNote', { platform: platformName })}</Note>
    </Stack>
  );
}
