import { checkEmailSchema } from '@subshare/core/validation';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';
import { selectLoginEmail } from '../selectors';
import { emailSubmitted } from '../slice';
import { FormStep } from './FormStep';

/** Step 1: the e-mail decides between logging in and registering. */
export function CheckEmailStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const email = useAppSelector(selectLoginEmail);

  return (
    <FormStep
      rules={checkEmailSchema}
      initialValues={{ email }}
      onSubmit={(values) => void dispatch(emailSubmitted(values.email))}
      intro={t('login.checkIntro')}
      submit={{ label: t('login.continue'), testId: 'login-continue', request: 'check' }}
    >
      <FormField name="email" type="email" label={t('login.email')} testId="login-email" autoComplete="email" inputMode="email" autoFocus required />
    </FormStep>
  );
}
