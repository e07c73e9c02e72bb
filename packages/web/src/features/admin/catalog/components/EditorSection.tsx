/**
 * The catalog editor's building blocks, shared by its sections: a titled section, a pair of
 * fields side by side (English | Korean), a field in both languages, and a whole list's error.
 */
import { Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { getIn, useFormikContext } from 'formik';
import { FormField } from '../../../../components/ui/FormField';
import { useT } from '../../../language/useT';
import type { EditorValues } from '../editorForm';
import { CATALOG_TEXTS } from '../texts';

export function Section({ title, testId, children }: { title: string; testId: string; children: React.ReactNode }) {
  return (
    <Stack as="section" data-testid={testId} gap="4" aria-label={title}>
      <Heading as="h2" size="lg">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

/** Two fields side by side on a wide screen (English | Korean), one above the other on a phone. */
export function Pair({ children }: { children: React.ReactNode }) {
  return (
    <Grid templateColumns={{ base: '1fr', md: '1fr 1fr' }} gap="3">
      {children}
    </Grid>
  );
}

export function Localized({ name, label, multiline }: { name: string; label: string; multiline?: number }) {
  const t = useT(CATALOG_TEXTS);
  const testId = `admin-catalog-${name.replace(/[[\].]+/g, '-').replace(/-$/, '')}`;
  return (
    <Pair>
      <FormField name={`${name}.en`} label={`${label} (${t('catalog.english')})`} testId={`${testId}-en`} multiline={multiline} required />
      <FormField name={`${name}.ko`} label={`${label} (${t('catalog.korean')})`} testId={`${testId}-ko`} multiline={multiline} required />
    </Pair>
  );
}

/** An error of a whole list ("add at least one", too many), shown under it. */
export function ListError({ name }: { name: string }) {
  const { errors, submitCount } = useFormikContext<EditorValues>();
  const error = getIn(errors, name);
  if (typeof error !== 'string' || submitCount === 0) return null;
  return (
    <Text data-testid={`field-error-${name}`} role="alert" color="fg.error" fontSize="sm">
      {error}
    </Text>
  );
}
