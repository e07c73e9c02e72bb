/**
 * The catalog editor's look: the two brand colours (typed or picked), the two logos and the live
 * preview of the storefront's card and page header.
 */
import { Box, Flex, Heading, Input } from '@chakra-ui/react';
import { useFormikContext } from 'formik';
import { useAppSelector } from '../../../../app/hooks';
import { FormField } from '../../../../components/ui/FormField';
import { selectLanguageId } from '../../../language/selectors';
import { useT } from '../../../language/useT';
import type { EditorValues } from '../editorForm';
import { CATALOG_TEXTS } from '../texts';
import { Pair, Section } from './EditorSection';
import { PlatformPreview } from './PlatformPreview';
import { LogoField } from './LogoField';

function ColorField({ name, label }: { name: 'colorOne' | 'colorTwo'; label: string }) {
  const { values, setFieldValue } = useFormikContext<EditorValues>();
  const valid = /^#[0-9a-fA-F]{6}$/.test(values[name]);
  return (
    <Flex gap="2" align="end">
      <Box flex="1">
        <FormField name={name} label={label} testId={`admin-catalog-${name}`} required />
      </Box>
      <Input
        type="color"
        aria-label={label}
        data-testid={`admin-catalog-${name}-picker`}
        value={valid ? values[name].toLowerCase() : '#000000'}
        onChange={(event) => void setFieldValue(name, event.target.value)}
        w="14"
        h="12"
        p="1"
      />
    </Flex>
  );
}

export function LookSection() {
  const t = useT(CATALOG_TEXTS);
  const { values } = useFormikContext<EditorValues>();
  const languageId = useAppSelector(selectLanguageId);
  return (
    <Section title={t('catalog.section.look')} testId="admin-catalog-look">
      <Pair>
        <ColorField name="colorOne" label={t('catalog.colorOne')} />
        <ColorField name="colorTwo" label={t('catalog.colorTwo')} />
      </Pair>
      <Pair>
        <LogoField field="logoBase" label={t('catalog.logoBase')} />
        <LogoField field="logoCarousel" label={t('catalog.logoCarousel')} />
      </Pair>
      <Heading as="h3" size="md">
        {t('catalog.section.preview')}
      </Heading>
      <PlatformPreview values={values} languageId={languageId} />
    </Section>
  );
}
