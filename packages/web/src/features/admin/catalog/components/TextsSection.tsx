/**
 * The catalog editor's texts: name and description in English and Korean, the how-it-works
 * points and the FAQ (add, remove).
 */
import { Button, Heading, Stack } from '@chakra-ui/react';
import { FieldArray, useFormikContext } from 'formik';
import { useT } from '../../../language/useT';
import type { EditorValues } from '../editorForm';
import { CATALOG_TEXTS } from '../texts';
import { ListError, Localized, Section } from './EditorSection';

export function TextsSection() {
  const t = useT(CATALOG_TEXTS);
  const { values } = useFormikContext<EditorValues>();
  return (
    <Section title={t('catalog.section.texts')} testId="admin-catalog-texts">
      <Localized name="name" label={t('catalog.name')} />
      <Localized name="description" label={t('catalog.description')} multiline={4} />
      <FieldArray name="howItWorks">
        {({ push, remove }) => (
          <Stack gap="3">
            <Heading as="h3" size="md">
              {t('catalog.section.howItWorks')}
            </Heading>
            {values.howItWorks.map((_, index) => (
              <Stack key={index} gap="2" data-testid="admin-catalog-point">
                <Localized name={`howItWorks[${index}]`} label={t('catalog.point', { n: index + 1 })} />
                <Button alignSelf="start" size="xs" variant="ghost" onClick={() => remove(index)}>
                  {t('catalog.remove')}
                </Button>
              </Stack>
            ))}
            <ListError name="howItWorks" />
            <Button data-testid="admin-catalog-add-point" alignSelf="start" size="sm" variant="outline" onClick={() => push({ en: '', ko: '' })}>
              {t('catalog.addPoint')}
            </Button>
          </Stack>
        )}
      </FieldArray>
      <FieldArray name="faq">
        {({ push, remove }) => (
          <Stack gap="3">
            <Heading as="h3" size="md">
              {t('catalog.section.faq')}
            </Heading>
            {values.faq.map((_, index) => (
              <Stack key={index} gap="2" data-testid="admin-catalog-faq-item">
                <Localized name={`faq[${index}].question`} label={t('catalog.question', { n: index + 1 })} />
                <Localized name={`faq[${index}].answer`} label={t('catalog.answer', { n: index + 1 })} multiline={3} />
                <Button alignSelf="start" size="xs" variant="ghost" onClick={() => remove(index)}>
                  {t('catalog.remove')}
                </Button>
              </Stack>
            ))}
            <ListError name="faq" />
            <Button
              data-testid="admin-catalog-add-faq"
              alignSelf="start"
              size="sm"
              variant="outline"
              onClick={() => push({ question: { en: '', ko: '' }, answer: { en: '', ko: '' } })}
            >
              {t('catalog.addFaq')}
            </Button>
          </Stack>
        )}
      </FieldArray>
    </Section>
  );
}
