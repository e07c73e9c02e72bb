import { Box, Flex, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { readableTextColor } from '../../../components/ui/color';
import { ItemField } from '../../../components/ui/ItemField';
import { PlatformLogo } from '../../../components/ui/PlatformLogo';
import type { Order } from '../../../services/api/payment';
import { formatPrice } from '../../catalog/rules';
import { selectLanguage } from '../../language/selectors';
import { CHECKOUT_TEXTS } from '../texts';
import { useT } from '../../language/useT';

/**
 * The order the payment page created (spec section 2): the platform's logo on its colour, one
 * row per item (order number, type, duration) and the total in the order's own currency.
 */
export function OrderSummary({ order }: { order: Order }) {
  const t = useT(CHECKOUT_TEXTS);
  const { culture } = useAppSelector(selectLanguage);
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

      <Flex justify="space-between" align="baseline" gap="4" wrap="wrap" borderTopWidth="1px" pt="4">
        <Text fontSize="lg" fontWeight="medium">
          {t('payment.total')}
        </Text>
        <Text data-testid="payment-total" data-currency={order.currencyCode} fontSize="3xl" fontWeight="bold" lineHeight="1">
          {formatPrice(order.total, order.currencyCode, culture)}
        </Text>
      </Flex>
    </Stack>
  );
}
