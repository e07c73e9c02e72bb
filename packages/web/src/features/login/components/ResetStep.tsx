import { resetPasswordFormSchema } from '@subshare/core/validation';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { selectLoginEmail, selectPending } from '../selectors';
import { passwordResetSubmitted, resetCodeRequested } from '../slice';
import { EmailSummary } from './EmailSummary';
import { FormStep } from './FormStep';
import { NewPasswordFields } from './PasswordFields';
import { CodeField, NoCodeLine } from './VerifyStep';

/**
 * "Forgot password?", step 2: the code mailed to the address and the new password,
 * typed twice (the sign-up rules). A correct code logs in; "send a new code" asks again.
 */
export function ResetStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const email = useAppSelector(selectLoginEmail);
  const pending = useAppSelector(selectPending);

  return (
    <FormStep
      rules={resetPasswordFormSchema}
      initialValues={{ email, code: '', password: '', confirmPassword: '' }}
      onSubmit={({ code, password }) => void dispatch(passwordResetSubmitted({ code, password }))}
      intro={t('reset.codeIntro', { email })}
      submit={{ label: t('reset.submit'), testId: 'reset-submit', request: 'reset' }}
      footer={<NoCodeLine testId="reset-resend" busy={pending === 'resendReset'} onClick={() => dispatch(resetCodeRequested(email, true))} />}
    >
      <EmailSummary email={email} />
      <CodeField label={t('reset.code')} testId="reset-code" autoFocus />
      <NewPasswordFields testIdPrefix="reset" label={t('reset.newPassword')} />
    </FormStep>
  );
}
