import { useMemo } from 'react';
import { Button, Stack, Text } from '@chakra-ui/react';
import { registerFormSchema } from '@subshare/core/validation';
import { Form, Formik } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';
import { useValidationMessages } from '../../language/useValidationMessages';
import { selectLoginEmail, selectPending } from '../selectors';
import { registrationSubmitted } from '../slice';
import { EmailSummary } from './EmailSummary';

/** Step 2b: a new e-mail; a password, typed twice. */
export function RegisterStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const schema = useMemo(() => registerFormSchema(messages), [messages]);
  const email = useAppSelector(selectLoginEmail);
  const pending = useAppSelector(selectPending);
  const toggle = { show: t('form.showPassword'), hide: t('form.hidePassword') };

  return (
    <Formik
      initialValues={{ email, password: '', confirmPassword: '' }}
      validationSchema={schema}
      onSubmit={({ password }) => void dispatch(registrationSubmitted(password))}
    >
      <Form noValidate>
        <Stack gap="5">
          <Text color="fg.muted">{t('login.registerIntro')}</Text>
          <EmailSummary email={email} />
          <FormField
            name="password"
            type="password"
            label={t('login.password')}
            testId="login-password"
            autoComplete="new-password"
            helperText={t('login.passwordHint')}
            autoFocus
            required
            passwordToggle={toggle}
          />
          <FormField
            name="confirmPassword"
            type="password"
            label={t('login.confirmPassword')}
            testId="login-confirm-password"
            autoComplete="new-password"
            required
            passwordToggle={toggle}
          />
          <Button type="submit" data-testid="register-submit" colorPalette="purple" size="lg" w="full" loading={pending === 'register'}>
            {t('login.registerSubmit')}
          </Button>
        </Stack>
      </Form>
    </Formik>
  );
}
