import { useMemo } from 'react';
import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { loginSchema } from '@subshare/core/validation';
import { Form, Formik } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';
import { useValidationMessages } from '../../language/useValidationMessages';
import { selectLoginEmail, selectPending } from '../selectors';
import { forgotPasswordRequested, passwordSubmitted } from '../slice';
import { EmailSummary } from './EmailSummary';

/** Step 2a: the account exists; its password, "remember me" for a 2-week login, and "Forgot password?". */
export function LoginStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const schema = useMemo(() => loginSchema(messages), [messages]);
  const email = useAppSelector(selectLoginEmail);
  const pending = useAppSelector(selectPending);

  return (
    <Formik
      initialValues={{ email, password: '', rememberMe: false }}
      validationSchema={schema}
      onSubmit={({ password, rememberMe }) => void dispatch(passwordSubmitted({ password, rememberMe }))}
    >
      <Form noValidate>
        <Stack gap="5">
          <Text color="fg.muted">{t('login.loginIntro')}</Text>
          <EmailSummary email={email} />
          {/* Above the field: the field's error, shown when it loses focus, cannot move the link away mid-click. */}
          <Text fontSize="sm" textAlign="end" mb="-3">
            <Link asChild colorPalette="purple" fontWeight="medium">
              <button type="button" data-testid="login-forgot" onClick={() => dispatch(forgotPasswordRequested())}>
                {t('login.forgot')}
              </button>
            </Link>
          </Text>
          <FormField
            name="password"
            type="password"
            label={t('login.password')}
            testId="login-password"
            autoComplete="current-password"
            autoFocus
            required
            passwordToggle={{ show: t('form.showPassword'), hide: t('form.hidePassword') }}
          />
          <FormField name="rememberMe" type="checkbox" label={t('login.rememberMe')} testId="login-remember-me" />
          <Button type="submit" data-testid="login-submit" colorPalette="purple" size="lg" w="full" loading={pending === 'login'}>
            {t('login.submit')}
          </Button>
        </Stack>
      </Form>
    </Formik>
  );
}
