import { pagePath } from '@subshare/core/pages';
import { useMemo, useState } from 'react';
import { Button, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { LIMITS, unusedRegisterSchema } from '@subshare/core/validation';
import { Form, Formik } from 'formik';
import { FormField } from '../../../components/ui/FormField';
import { ButtonLink } from '../../../components/ui/links';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';
import { useValidationMessages } from '../../language/useValidationMessages';
import { NewPasswordFields } from '../components/PasswordFields';

const EMPTY = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };

/**
 * /register: the spec keeps it as an unused form (names 2 to 20 characters, password 8 to 12).
 * It validates but calls nothing: a valid form points to /login, where accounts are created.
 */
export default function RegisterPage() {
  const t = useT();
  const messages = useValidationMessages();
  const schema = useMemo(() => unusedRegisterSchema(messages), [messages]);
  const [done, setDone] = useState(false);

  return (
    <Page testId="page-register" title={t('register.title')}>
      <Formik initialValues={EMPTY} validationSchema={schema} onSubmit={() => setDone(true)}>
        <Form noValidate>
          <Stack gap="5" maxW="lg">
            <SimpleGrid columns={{ base: 1, sm: 2 }} gap="5">
              <FormField name="firstName" label={t('register.firstName')} testId="register-first-name" autoComplete="given-name" required />
              <FormField name="lastName" label={t('register.lastName')} testId="register-last-name" autoComplete="family-name" required />
            </SimpleGrid>
            <FormField name="email" type="email" label={t('login.email')} testId="register-email" autoComplete="email" inputMode="email" required />
            <NewPasswordFields testIdPrefix="register" label={t('login.password')} limits={LIMITS.unusedRegisterPassword} />
            <Button type="submit" data-testid="register-form-submit" colorPalette="purple" size="lg">
              {t('register.submit')}
            </Button>
            {done && (
              <Stack data-testid="register-notice" role="status" gap="3">
                <Text>{t('register.notice')}</Text>
                <ButtonLink to={pagePath.login()} variant="outline" colorPalette="purple" alignSelf="start">
                  {t('register.goToLogin')}
                </ButtonLink>
              </Stack>
            )}
          </Stack>
        </Form>
      </Formik>
    </Page>
  );
}
