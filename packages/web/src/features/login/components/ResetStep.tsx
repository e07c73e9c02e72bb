import { useMemo } from 'react';
import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { LIMITS, resetPasswordFormSchema } from '@subshare/core/validation';
import { Form, Formik } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';
import { useValidationMessages } from '../../language/useValidationMessages';
import { selectLoginEmail, selectPending } from '../selectors';
import { passwordResetSubmitted, resetCodeRequested } from '../slice';
import { EmailSummary } from './EmailSummary';
import { withoutSpaces } from './VerifyStep';

/**
 * "Forgot password?", step 2: the code mailed to the address and the new password,
 * typed twice (the sign-up rules). A correct code logs in; "send a new code" asks again.
 */
export function ResetStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const schema = useMemo(() => resetPasswordFormSchema(messages), [messages]);
  const email = useAppSelector(selectLoginEmail);
  const pending = useAppSelector(selectPending);
  const toggle = { show: t('form.showPassword'), hide: t('form.hidePassword') };

  return (
    <Formik
      initialValues={{ email, code: '', password: '', confirmPassword: '' }}
      validationSchema={schema}
      onSubmit={(values) => {
        const { code, password } = schema.cast(values);
        dispatch(passwordResetSubmitted({ code, password }));
      }}
    >
      <Form noValidate>
        <Stack gap="5">
          <Text color="fg.muted">{t('reset.codeIntro', { email })}</Text>
          <EmailSummary email={email} />
          <FormField
            name="code"
            label={t('reset.code')}
            testId="reset-code"
            autoComplete="one-time-code"
            inputMode="numeric"
            autoFocus
            required
            normalize={withoutSpaces}
            counter={{ max: LIMITS.verificationCode.length, testId: 'reset-code-counter' }}
          />
          <FormField
            name="password"
            type="password"
            label={t('reset.newPassword')}
            testId="reset-password"
            autoComplete="new-password"
            helperText={t('login.passwordHint')}
            required
            passwordToggle={toggle}
          />
          <FormField
            name="confirmPassword"
            type="password"
            label={t('login.confirmPassword')}
            testId="reset-confirm-password"
            autoComplete="new-password"
            required
            passwordToggle={toggle}
          />
          <Button type="submit" data-testid="reset-submit" colorPalette="purple" size="lg" w="full" loading={pending === 'reset'}>
            {t('reset.submit')}
          </Button>
          <Text fontSize="sm" color="fg.muted">
            {t('verify.noCode')}{' '}
            <Link asChild colorPalette="purple" fontWeight="medium">
              <button
                type="button"
                data-testid="reset-resend"
                disabled={pending === 'resendReset'}
                aria-busy={pending === 'resendReset'}
                onClick={() => dispatch(resetCodeRequested(email, true))}
              >
                {t('verify.resend')}
              </button>
            </Link>
          </Text>
        </Stack>
      </Form>
    </Formik>
  );
}
