import { Button, Flex, Stack } from '@chakra-ui/react';
import { Form, Formik } from 'formik';
import type { ObjectSchema } from 'yup';
import { FormField } from '../../../components/ui/FormField';
import { ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

interface SearchFormProps {
  /** Test ids: the form `<testId>`, its input `<testId>-input`, its button `<testId>-submit`. */
  testId: string;
  label: string;
  type: 'text' | 'email';
  inputMode: 'numeric' | 'email';
  /** One field named `query`; the search is sent only when it is valid (spec section 5). */
  schema: ObjectSchema<{ query: string }>;
  onSearch: (query: string) => void;
}

/** The search box of an admin list: Formik + the shared rules + FormField; Search replaces the list. */
export function SearchForm({ testId, label, type, inputMode, schema, onSearch }: SearchFormProps) {
  const t = useT(ADMIN_TEXTS);
  return (
    <Formik initialValues={{ query: '' }} validationSchema={schema} onSubmit={(values) => onSearch(schema.cast(values).query)}>
      <Form noValidate data-testid={testId} role="search" aria-label={label}>
        <Flex gap="3" direction={{ base: 'column', sm: 'row' }} align={{ base: 'stretch', sm: 'flex-end' }}>
          <Stack flex="1" minW="0" maxW={{ sm: 'md' }}>
            <FormField name="query" type={type} inputMode={inputMode} label={label} testId={`${testId}-input`} autoComplete="off" required />
          </Stack>
          <Button type="submit" data-testid={`${testId}-submit`} size="lg" colorPalette="purple">
            {t('admin.search')}
          </Button>
        </Flex>
      </Form>
    </Formik>
  );
}
