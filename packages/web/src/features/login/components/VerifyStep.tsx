import { useMemo } from 'react';
import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { LIMITS, verificationCodeSchema } from '@subshare/core/validation';
import { Form, Formik } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';
import { useValidationMessages } from '../../language/useValidationMessages';
import { selectLoginEmail, selectPending } from '../selectors';
import { codeResendRequested, codeSubmitted } from '../slice';
import { EmailSummary } from './EmailSummary';

const CODE_LENGTH = LIMITS.verificationCode.length;

/** Codes arrive as "123 456" in some mail apps: spaces are dropped as they are typed or pasted. */
export const withoutSpaces = (value: string) => value.replace(/\s+/g, '');

/**
 * Step 3: the code sent by e-mail, with its `n / CODE_DIGITS` counter and "send a new code".
 * The e-mail is asked for only when it is unknown (a social login waiting for verification).
 */
export function VerifyStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const schema = useMemo(() => verificationCodeSchema(messages), [messages]);
  const knownEmail = useAppSelector(selectLoginEmail);
  const pending = useAppSelector(selectPending);

  return (
    <Formik
      initialValues={{ email: knownEmail, code: '' }}
      validationSchema={schema}
      onSubmit={(values) => {
        const { email, code } = schema.cast(values);
        dispatch(codeSubmitted({ email, code }));
      }}
    >
      {({ values, setFieldTouched }) => {
        const resend = () => {
          const fields = schema.pick(['email']);
          if (!fields.isValidSync({ email: values.email })) {
            void setFieldTouched('email', true);
            return;
          }
          dispatch(codeResendRequested(fields.cast({ email: values.email }).email));
        };
        return (
          <Form noValidate>
            <Stack gap="5">
              <Text color="fg.muted">{knownEmail ? t('verify.intro', { email: knownEmail }) : t('verify.introNoEmail')}</Text>
              {knownEmail ? (
                <EmailSummary email={knownEmail} />
              ) : (
                <FormField name="email" type="email" label={t('login.email')} testId="verification-email" autoComplete="email" inputMode="email" required />
              )}
              <FormField
                name="code"
                label={t('verify.code')}
                testId="verification-code"
                autoComplete="one-time-code"
                inputMode="numeric"
                autoFocus={Boolean(knownEmail)}
                required
                normalize={withoutSpaces}
                counter={{ max: CODE_LENGTH, testId: 'verification-code-counter' }}
              />
              <Button type="submit" data-testid="verification-submit" colorPalette="purple" size="lg" w="full" loading={pending === 'verify'}>
                {t('verify.submit')}
              </Button>
              <Text fontSize="sm" color="fg.muted">
                {t('verify.noCode')}{' '}
                <Link asChild colorPalette="purple" fontWeight="medium">
                  <button type="button" data-testid="verification-resend" disabled={pending === 'resend'} aria-busy={pending === 'resend'} onClick={resend}>
                    {t('verify.resend')}
                  </button>
                </Link>
              </Text>
            </Stack>
          </Form>
        );
      }}
    </Formik>
  );
}
