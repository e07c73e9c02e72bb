import { Text } from '@chakra-ui/react';
import { loginSchema } from '@subshare/core/validation';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';
import { selectLoginEmail } from '../selectors';
import { forgotPasswordRequested, passwordSubmitted } from '../slice';
import { EmailSummary } from './EmailSummary';
import { FormStep, StepLink } from './FormStep';
import { PasswordField } from './PasswordFields';

/** Step 2a: the account exists; its password, "remember me" for a 2-week login, and "Forgot password?". */
export function LoginStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const email = useAppSelector(selectLoginEmail);

  return (
    <FormStep
      rules={loginSchema}
      initialValues={{ email, password: '', rememberMe: false }}
      onSubmit={({ password, rememberMe }) => void dispatch(passwordSubmitted({ password, rememberMe }))}
      intro={t('login.loginIntro')}
      submit={{ label: t('login.submit'), testId: 'login-submit', request: 'login' }}
    >
      <EmailSummary email={email} />
      {/* Above the field: the field's error, shown when it loses focus, cannot move the link away mid-click. */}
      <Text fontSize="sm" textAlign="end" mb="-3">
        <StepLink testId="login-forgot" onClick={() => dispatch(forgotPasswordRequested())}>
          {t('login.forgot')}
        </StepLink>
      </Text>
      <PasswordField name="password" label={t('login.password')} testId="login-password" autoComplete="current-password" autoFocus />
      <FormField name="rememberMe" type="checkbox" label={t('login.rememberMe')} testId="login-remember-me" />
    </FormStep>
  );
}
