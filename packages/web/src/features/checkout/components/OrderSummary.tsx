import { Fragment } from 'react';
import { Box, Flex, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { readableTextColor } from '../../../components/ui/color';
import { ItemField } from '../../../components/ui/ItemField';
import { PlatformLogo } from '../../../components/ui/PlatformLogo';
import type { Order } from '../../../services/api/payment';
import { formatPrice } from '../../catalog/rules';
import type { CreditPlan } from '../credit';
import { selectLanguage } from '../../language/selectors';
import { CHECKOUT_TEXTS } from '../texts';
import { useT } from '../../language/useT';

/**
 * The order the payment page created (spec section 2): the platform's logo on its colour, one
 * row per item (order number, type, duration) and the total in the order's own currency.
 * `credit`: what "Use my credit" will take, as chosen (issue 37); without it, the order's own figures.
 */
export function OrderSummary({ order, credit }: { order: Order; credit?: CreditPlan | null }) {
  const t = useT(CHECKOUT_TEXTS);
  const first = order.items[0];
  const colour = first?.platformColorOne || '#1a1a2e';

  return (
    <Stack gap="6">
      {first && (
        <Flex
          data-testid="payment-platform"
          bg={colour}
          color={readableTextColor(colour)}
          borderRadius="2xl"
          px={{ base: '5', md: '8' }}
          py={{ base: '5', md: '6' }}
          align="center"
          gap={{ base: '4', md: '8' }}
          wrap="wrap"
        >
          <PlatformLogo
            name={first.platformName}
            src={first.platformLogoBase}
            colour={colour}
            alt={t('payment.logoAlt', { name: first.platformName })}
            testId="payment-platform-logo"
            // The logos are 240×80: the box keeps their 3:1 shape at the banner's height.
            htmlWidth={240}
            htmlHeight={80}
            h={{ base: '12', md: '16' }}
            w={{ base: '144px', md: '192px' }}
            maxW="full"
            fontSize="2xl"
          />
          <Heading as="h2" size={{ base: 'xl', md: '2xl' }} color="inherit">
            {first.platformName}
          </Heading>
        </Flex>
      )}

      <Box as="section" aria-labelledby="payment-items-heading">
        <Heading as="h2" id="payment-items-heading" size="lg" mb="3">
          {t('payment.items')}
        </Heading>
        <chakra.ul listStyleType="none" m="0" p="0" display="flex" flexDirection="column" gap="3">
          {order.items.map((item, index) => (
            <chakra.li key={index} data-testid="payment-item" data-platform-id={item.platformId} borderWidth="1px" borderRadius="lg" p="4">
              <chakra.dl display="grid" gridTemplateColumns={{ base: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' }} gap="3" m="0">
                <ItemField label={t('payment.orderNumber')} testId="payment-item-order">
                  {order.id}
                </ItemField>
                <ItemField label={t('payment.type')} testId="payment-item-type">
                  {item.typeName}
                </ItemField>
                <ItemField label={t('payment.duration')} testId="payment-item-duration">
                  {item.durationName}
                </ItemField>
              </chakra.dl>
            </chakra.li>
          ))}
        </chakra.ul>
      </Box>

      <PriceLines order={order} applied={credit ? credit.applied : order.creditApplied} toPay={credit ? credit.toPay : order.toPay} />
    </Stack>
  );
}

/**
 * The money (issue 37): with a discount, the price, the discount line (its code, or the welcome
 * discount) and, with credit, the credit applied; then what the provider is asked for (`toPay`:
 * "Total" when nothing but the discount lowered it, "To pay" when credit paid a part). Without
 * either, the total alone, as before.
 */
function PriceLines({ order, applied, toPay }: { order: Order; applied: number; toPay: number }) {
  const t = useT(CHECKOUT_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
  const money = (amount: number) => formatPrice(amount, order.currencyCode, culture);
  const credit = applied > 0;
  const lines: Array<{ testId: string; label: string; amount: string }> = [];
  if (order.discount > 0) {
    lines.push({ testId: 'payment-subtotal', label: t('payment.subtotal'), amount: money(order.subtotal) });
    const label = order.discountSource === 'code' && order.promoCode ? t('payment.discountCode', { code: order.promoCode }) : t('payment.welcomeDiscount');
    lines.push({ testId: 'payment-discount', label, amount: money(-order.discount) });
  }
  if (credit) lines.push({ testId: 'payment-credit', label: t('payment.creditApplied'), amount: money(-applied) });

  return (
    <Stack gap="2" borderTopWidth="1px" pt="4">
      {lines.length > 0 && (
        <chakra.dl data-testid="payment-price-lines" display="grid" gridTemplateColumns="minmax(0, 1fr) auto" columnGap="4" rowGap="1" m="0">
          {lines.map((line) => (
            <Fragment key={line.testId}>
              <chakra.dt data-testid={`${line.testId}-label`} color="fg.muted" overflowWrap="anywhere">
                {line.label}
              </chakra.dt>
              <chakra.dd data-testid={line.testId} m="0" textAlign="end" fontVariantNumeric="tabular-nums">
                {line.amount}
              </chakra.dd>
            </Fragment>
          ))}
        </chakra.dl>
      )}
      <Flex justify="space-between" align="baseline" gap="4" wrap="wrap">
        <Text data-testid="payment-total-label" fontSize="lg" fontWeight="medium">
          {t(credit ? 'payment.toPay' : 'payment.total')}
        </Text>
        <Text data-testid="payment-total" data-currency={order.currencyCode} fontSize="3xl" fontWeight="bold" lineHeight="1">
          {money(toPay)}
        </Text>
      </Flex>
    </Stack>
  );
}
