import { registerFormSchema } from '@subshare/core/validation';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { selectLoginEmail } from '../selectors';
import { registrationSubmitted } from '../slice';
import { EmailSummary } from './EmailSummary';
import { FormStep } from './FormStep';
import { NewPasswordFields } from './PasswordFields';

/** Step 2b: a new e-mail; a password, typed twice. */
export function RegisterStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const email = useAppSelector(selectLoginEmail);

  return (
    <FormStep
      rules={registerFormSchema}
      initialValues={{ email, password: '', confirmPassword: '' }}
      onSubmit={({ password }) => void dispatch(registrationSubmitted(password))}
      intro={t('login.registerIntro')}
      submit={{ label: t('login.registerSubmit'), testId: 'register-submit', request: 'register' }}
    >
      <EmailSummary email={email} />
      <NewPasswordFields testIdPrefix="login" label={t('login.password')} autoFocus />
    </FormStep>
  );
}
