import { Text } from '@chakra-ui/react';
import { checkEmailSchema, LIMITS, verificationCodeSchema } from '@subshare/core/validation';
import { useFormikContext } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';
import { useValidationMessages } from '../../language/useValidationMessages';
import { selectLoginEmail, selectPending } from '../selectors';
import { codeResendRequested, codeSubmitted } from '../slice';
import { EmailSummary } from './EmailSummary';
import { FormStep, StepLink } from './FormStep';

/** Codes arrive as "123 456" in some mail apps: spaces are dropped as they are typed or pasted. */
const withoutSpaces = (value: string) => value.replace(/\s+/g, '');

/** The code from an e-mail (`code`, CODE_DIGITS digits), with its `n / CODE_DIGITS` counter (`<testId>-counter`). */
export function CodeField({ label, testId, autoFocus }: { label: string; testId: string; autoFocus: boolean }) {
  return (
    <FormField
      name="code"
      label={label}
      testId={testId}
      autoComplete="one-time-code"
      inputMode="numeric"
      autoFocus={autoFocus}
      required
      normalize={withoutSpaces}
      counter={{ max: LIMITS.verificationCode.length, testId: `${testId}-counter` }}
    />
  );
}

/**
 * Step 3: the code sent by e-mail, with its `n / CODE_DIGITS` counter and "send a new code".
 * The e-mail is asked for only when it is unknown (a social login waiting for verification).
 */
export function VerifyStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const knownEmail = useAppSelector(selectLoginEmail);

  return (
    <FormStep
      rules={verificationCodeSchema}
      initialValues={{ email: knownEmail, code: '' }}
      onSubmit={({ email, code }) => void dispatch(codeSubmitted({ email, code }))}
      intro={knownEmail ? t('verify.intro', { email: knownEmail }) : t('verify.introNoEmail')}
      submit={{ label: t('verify.submit'), testId: 'verification-submit', request: 'verify' }}
      footer={<ResendCode />}
    >
      {knownEmail ? (
        <EmailSummary email={knownEmail} />
      ) : (
        <FormField name="email" type="email" label={t('login.email')} testId="verification-email" autoComplete="email" inputMode="email" required />
      )}
      <CodeField label={t('verify.code')} testId="verification-code" autoFocus={Boolean(knownEmail)} />
    </FormStep>
  );
}

/** "send a new code" to the e-mail of the form: a missing or invalid one shows its error instead. */
function ResendCode() {
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const pending = useAppSelector(selectPending);
  const { values, setFieldTouched } = useFormikContext<{ email: string }>();
  const resend = () => {
    const fields = checkEmailSchema(messages);
    if (!fields.isValidSync({ email: values.email })) {
      void setFieldTouched('email', true);
      return;
    }
    dispatch(codeResendRequested(fields.cast({ email: values.email }).email));
  };
  return <NoCodeLine testId="verification-resend" busy={pending === 'resend'} onClick={resend} />;
}

/** "No code? Check your spam folder, or send a new code", under a step that asks for a code. */
export function NoCodeLine({ testId, busy, onClick }: { testId: string; busy: boolean; onClick: () => void }) {
  const t = useT();
  return (
    <Text fontSize="sm" color="fg.muted">
      {t('verify.noCode')}{' '}
      <StepLink testId={testId} busy={busy} onClick={onClick}>
        {t('verify.resend')}
      </StepLink>
    </Text>
  );
}
