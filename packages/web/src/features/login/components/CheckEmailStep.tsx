import { useMemo } from 'react';
import { Button, Stack, Text } from '@chakra-ui/react';
import { checkEmailSchema } from '@subshare/core/validation';
import { Form, Formik } from 'formik';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';
import { useValidationMessages } from '../../language/useValidationMessages';
import { selectLoginEmail, selectPending } from '../selectors';
import { emailSubmitted } from '../slice';

/** Step 1: the e-mail decides between logging in and registering. */
export function CheckEmailStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const messages = useValidationMessages();
  const schema = useMemo(() => checkEmailSchema(messages), [messages]);
  const email = useAppSelector(selectLoginEmail);
  const pending = useAppSelector(selectPending);

  return (
    <Formik initialValues={{ email }} validationSchema={schema} onSubmit={(values) => void dispatch(emailSubmitted(schema.cast(values).email))}>
      <Form noValidate>
        <Stack gap="5">
          <Text color="fg.muted">{t('login.checkIntro')}</Text>
          <FormField name="email" type="email" label={t('login.email')} testId="login-email" autoComplete="email" inputMode="email" autoFocus required />
          <Button type="submit" data-testid="login-continue" colorPalette="purple" size="lg" w="full" loading={pending === 'check'}>
            {t('login.continue')}
          </Button>
        </Stack>
      </Form>
    </Formik>
  );
}
