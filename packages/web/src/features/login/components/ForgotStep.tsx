import { useMemo } from 'react';
import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { forgotPasswordSchema } from '@subshare/core/validation';
import { Form, Formik } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';
import { useValidationMessages } from '../../language/useValidationMessages';
import { selectLoginEmail, selectPending } from '../selectors';
import { resetCodeRequested, stepShown } from '../slice';

/** "Forgot password?", step 1: the e-mail the reset code goes to (the one typed at login, editable). */
export function ForgotStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const schema = useMemo(() => forgotPasswordSchema(messages), [messages]);
  const email = useAppSelector(selectLoginEmail);
  const pending = useAppSelector(selectPending);

  return (
    <Formik initialValues={{ email }} validationSchema={schema} onSubmit={(values) => void dispatch(resetCodeRequested(schema.cast(values).email))}>
      <Form noValidate>
        <Stack gap="5">
          <Text color="fg.muted">{t('reset.intro')}</Text>
          <FormField name="email" type="email" label={t('login.email')} testId="forgot-email" autoComplete="email" inputMode="email" autoFocus required />
          <Button type="submit" data-testid="forgot-submit" colorPalette="purple" size="lg" w="full" loading={pending === 'forgot'}>
            {t('reset.sendCode')}
          </Button>
          <Text fontSize="sm">
            <Link asChild colorPalette="purple" fontWeight="medium">
              <button type="button" data-testid="forgot-back" onClick={() => dispatch(stepShown('login'))}>
                {t('reset.backToLogin')}
              </button>
            </Link>
          </Text>
        </Stack>
      </Form>
    </Formik>
  );
}
