/**
 * The catalog editor's prices: a price and a sale price in EUR and KRW for every duration × type,
 * a disabled pair dimmed.
 */
import { Grid, Stack, Text } from '@chakra-ui/react';
import { useFormikContext } from 'formik';
import { useAppSelector } from '../../../../app/hooks';
import { FormField } from '../../../../components/ui/FormField';
import { selectLanguageId } from '../../../language/selectors';
import { useT } from '../../../language/useT';
import { pricePairs, type EditorValues } from '../editorForm';
import { CATALOG_TEXTS } from '../texts';
import { ListError, Section } from './EditorSection';

export function PricesSection() {
  const t = useT(CATALOG_TEXTS);
  const { values } = useFormikContext<EditorValues>();
  const languageId = useAppSelector(selectLanguageId);
  const text = (value: { en: string; ko: string }) => (languageId === 2 ? value.ko || value.en : value.en || value.ko);
  const pairs = pricePairs(values);
  return (
    <Section title={t('catalog.section.prices')} testId="admin-catalog-prices">
      <Text fontSize="sm" color="fg.muted">
        {t('catalog.pricesHint')}
      </Text>
      {pairs.length === 0 && <Text>{t('catalog.noPairs')}</Text>}
      <ListError name="prices" />
      {pairs.map((pair) => {
        const name = (currency: 'eur' | 'krw', part: 'price' | 'salePrice') => `prices.${pair.key}.${currency}.${part}`;
        const label = (currency: 'EUR' | 'KRW', part: 'price' | 'salePrice') => `${t(part === 'price' ? 'catalog.price' : 'catalog.salePrice')} (${currency})`;
        return (
          <Stack
            key={pair.key}
            gap="2"
            data-testid="admin-catalog-price"
            data-duration-key={pair.duration.key}
            data-type-key={pair.type.key}
            data-enabled={pair.enabled}
            borderWidth="1px"
            borderRadius="md"
            p="3"
            opacity={pair.enabled ? 1 : 0.6}
          >
            <Text fontWeight="semibold">
              {text(pair.duration.name) || `${pair.duration.months}`} × {text(pair.type.name) || '…'}
              {!pair.enabled && ` (${t('catalog.pairDisabled')})`}
            </Text>
            <Grid templateColumns={{ base: '1fr 1fr', md: 'repeat(4, 1fr)' }} gap="3">
              <FormField name={name('eur', 'price')} label={label('EUR', 'price')} testId={`admin-catalog-price-eur-price`} inputMode="decimal" />
              <FormField name={name('eur', 'salePrice')} label={label('EUR', 'salePrice')} testId={`admin-catalog-price-eur-sale`} inputMode="decimal" />
              <FormField name={name('krw', 'price')} label={label('KRW', 'price')} testId={`admin-catalog-price-krw-price`} inputMode="numeric" />
              <FormField name={name('krw', 'salePrice')} label={label('KRW', 'salePrice')} testId={`admin-catalog-price-krw-sale`} inputMode="numeric" />
            </Grid>
          </Stack>
        );
      })}
    </Section>
  );
}
