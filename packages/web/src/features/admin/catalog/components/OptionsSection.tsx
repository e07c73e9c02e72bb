/**
 * The catalog editor's durations or types: add, rename, disable; one with orders cannot be removed.
 */
import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { FieldArray, useFormikContext } from 'formik';
import { FormField } from '../../../../components/ui/FormField';
import { useT } from '../../../language/useT';
import { newKey, type EditorValues } from '../editorForm';
import { CATALOG_TEXTS } from '../texts';
import { ListError, Localized, Section } from './EditorSection';

export function OptionsSection({ kind }: { kind: 'durations' | 'types' }) {
  const t = useT(CATALOG_TEXTS);
  const { values } = useFormikContext<EditorValues>();
  const items = values[kind];
  const single = kind === 'durations' ? 'duration' : 'type';
  return (
    <Section title={t(kind === 'durations' ? 'catalog.section.durations' : 'catalog.section.types')} testId={`admin-catalog-${kind}`}>
      <FieldArray name={kind}>
        {({ push, remove }) => (
          <Stack gap="3">
            {items.map((item, index) => (
              <Stack
                key={item.key}
                gap="2"
                data-testid={`admin-catalog-${single}`}
                data-key={item.key}
                data-has-orders={item.hasOrders}
                borderWidth="1px"
                borderRadius="md"
                p="3"
              >
                <Localized name={`${kind}[${index}].name`} label={t('catalog.name')} />
                <Flex gap="4" align="end" wrap="wrap">
                  {kind === 'durations' && (
                    <Box w="32">
                      <FormField
                        name={`durations[${index}].months`}
                        label={t('catalog.months')}
                        testId={`admin-catalog-durations-${index}-months`}
                        inputMode="numeric"
                        required
                      />
                    </Box>
                  )}
                  <FormField
                    type="checkbox"
                    name={`${kind}[${index}].isEnabled`}
                    label={t('catalog.optionEnabled')}
                    testId={`admin-catalog-${kind}-${index}-enabled`}
                  />
                  {item.hasOrders ? (
                    <Text data-testid={`admin-catalog-${single}-has-orders`} fontSize="sm" color="fg.muted">
                      {t('catalog.hasOrders')}
                    </Text>
                  ) : (
                    <Button data-testid={`admin-catalog-${single}-remove`} size="xs" variant="ghost" onClick={() => remove(index)}>
                      {t('catalog.remove')}
                    </Button>
                  )}
                </Flex>
              </Stack>
            ))}
            <ListError name={kind} />
            <Button
              data-testid={`admin-catalog-add-${single}`}
              alignSelf="start"
              size="sm"
              variant="outline"
              onClick={() =>
                push(
                  kind === 'durations'
                    ? { key: newKey(items), name: { en: '', ko: '' }, months: '', isEnabled: true, hasOrders: false }
                    : { key: newKey(items), name: { en: '', ko: '' }, isEnabled: true, hasOrders: false },
                )
              }
            >
              {t(kind === 'durations' ? 'catalog.addDuration' : 'catalog.addType')}
            </Button>
          </Stack>
        )}
      </FieldArray>
    </Section>
  );
}
