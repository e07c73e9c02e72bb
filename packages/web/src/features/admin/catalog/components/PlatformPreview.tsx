/**
 * The live preview of the platform being edited: the storefront's own home card and platform
 * page header (features/catalog/components), fed with the form's values in the interface
 * language and currency, so what the admin sees is what buyers will see. Clicks inside it do
 * not navigate.
 */
import type { MouseEvent } from 'react';
import { Box, Grid, Stack, Text } from '@chakra-ui/react';
import type { Platform } from '../../../../services/api';
import { PlatformCard } from '../../../catalog/components/PlatformCard';
import { PlatformHeader } from '../../../catalog/components/PlatformHeader';
import { useT } from '../../../language/useT';
import { parseAmount, priceCell, pricePairs, type EditorValues } from '../editorForm';
import { CATALOG_TEXTS } from '../texts';

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** The form's values as the storefront's Platform (prices in major units; ids by position). */
export function previewPlatform(values: EditorValues, languageId: number): Platform {
  const text = (value: { en: string; ko: string }) => (languageId === 2 ? value.ko || value.en : value.en || value.ko);
  const durationIds = new Map(values.durations.map((d, index) => [d.key, index + 1]));
  const typeIds = new Map(values.types.map((t, index) => [t.key, index + 1]));
  const prices = pricePairs(values).flatMap((pair) => {
    const cell = priceCell(values, pair.key);
    const eur = parseAmount(cell.eur.salePrice, 'EUR');
    const krw = parseAmount(cell.krw.salePrice, 'KRW');
    const eurPrice = parseAmount(cell.eur.price, 'EUR');
    const krwPrice = parseAmount(cell.krw.price, 'KRW');
    const amounts = (sale: number | undefined, price: number | undefined, currencyId: number, divisor: number) =>
      sale === undefined || Number.isNaN(sale)
        ? []
        : [{ currencyId, sale: sale / divisor, price: (price === undefined || Number.isNaN(price) ? sale : price) / divisor }];
    const all = [...amounts(eur, eurPrice, 1, 100), ...amounts(krw, krwPrice, 2, 1)];
    if (all.length === 0) return [];
    return [
      {
        durationId: durationIds.get(pair.duration.key)!,
        typeId: typeIds.get(pair.type.key)!,
        price: all.map((a) => ({ currencyId: a.currencyId, price: a.price })),
        salePrice: all.map((a) => ({ currencyId: a.currencyId, price: a.sale })),
      },
    ];
  });
  return {
    id: 0,
    name: text(values.name),
    description: text(values.description),
    logoBase: values.logoBase,
    logoCarousel: values.logoCarousel,
    colorOne: COLOR.test(values.colorOne) ? values.colorOne : '#000000',
    colorTwo: COLOR.test(values.colorTwo) ? values.colorTwo : '#000000',
    howItWorks: values.howItWorks.map(text),
    duration: values.durations.map((d) => ({ id: durationIds.get(d.key)!, name: text(d.name), value: Number(d.months) || 1, isEnable: d.isEnabled })),
    type: values.types.map((t) => ({ id: typeIds.get(t.key)!, name: text(t.name), isEnable: t.isEnabled })),
    prices,
    faq: values.faq.map((entry) => ({ question: text(entry.question), answer: text(entry.answer) })),
    slotsCount: Number(values.slotsCount) || 1,
    platformType: Number(values.category),
    haveInvitation: values.needsInvitation,
    offSale: false,
  };
}

const stay = (event: MouseEvent) => event.preventDefault();

export function PlatformPreview({ values, languageId }: { values: EditorValues; languageId: number }) {
  const t = useT(CATALOG_TEXTS);
  const previewed = previewPlatform(values, languageId);
  // A new platform has no name yet: the card's heading says so instead of being empty.
  const platform = previewed.name ? previewed : { ...previewed, name: t('catalog.newTitle') };
  return (
    // The storefront's components are plain CSS under .ss-app; inside the admin area they draw the same.
    <Grid data-testid="admin-catalog-preview" templateColumns={{ base: '1fr', lg: '280px 1fr' }} gap="4" onClickCapture={stay}>
      <Stack gap="2">
        <Text fontSize="sm" color="fg.muted">
          {t('catalog.previewCard')}
        </Text>
        <Box data-testid="admin-catalog-preview-card" maxW="280px">
          <PlatformCard platform={platform} />
        </Box>
      </Stack>
      <Stack gap="2" minW="0">
        <Text fontSize="sm" color="fg.muted">
          {t('catalog.previewHeader')}
        </Text>
        <Box data-testid="admin-catalog-preview-header" borderRadius="md" overflow="hidden">
          <PlatformHeader platform={platform} titleAs="p" />
        </Box>
      </Stack>
    </Grid>
  );
}
