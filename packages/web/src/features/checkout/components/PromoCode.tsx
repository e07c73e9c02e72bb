import { Box, Button, Field, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectOrder, selectPaying, selectPromo } from '../selectors';
import { promoApplyRequested, promoInputChanged, promoToggled } from '../slice';
import { CHECKOUT_TEXTS } from '../texts';
import { useT } from '../../language/useT';

const FORM_ID = 'payment-promo-form';
const ERROR_ID = 'payment-promo-error';

/**
 * "Have a code?" (issue 37): a disclosure button that opens a real form (a labelled field and
 * Apply, submitted by Enter too); a refusal shows the dictionary's reason in the buyer's language
 * under the field, announced, and the field is marked invalid. The order summary shows the discount.
 */
export function PromoCode() {
  const t = useT(CHECKOUT_TEXTS);
  const dispatch = useAppDispatch();
  const promo = useAppSelector(selectPromo);
  const order = useAppSelector(selectOrder);
  const paying = useAppSelector(selectPaying);
  const applied = order?.discountSource === 'code' ? order.promoCode : null;

  return (
    <Box as="section" data-testid="payment-promo" data-open={promo.open}>
      <Button
        data-testid="payment-promo-toggle"
        variant="plain"
        colorPalette="purple"
        color="purple.700"
        px="0"
        textDecoration="underline"
        aria-expanded={promo.open}
        aria-controls={FORM_ID}
        onClick={() => dispatch(promoToggled())}
      >
        {t('payment.promo.toggle')}
      </Button>
      {applied && (
        <Text data-testid="payment-promo-applied" role="status" color="green.800" fontWeight="medium">
          {t('payment.promo.applied', { code: applied })}
        </Text>
      )}
      {promo.open && (
        <form
          id={FORM_ID}
          data-testid={FORM_ID}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            dispatch(promoApplyRequested());
          }}
        >
          <Stack gap="2" mt="2">
            <Field.Root invalid={promo.error !== null} disabled={paying}>
              <Field.Label>{t('payment.promo.label')}</Field.Label>
              {/* Wraps below the field on a narrow phone (320 px): the button keeps its width. */}
              <Flex gap="2" wrap="wrap" w="full">
                <Input
                  data-testid="payment-promo-input"
                  name="code"
                  value={promo.input}
                  onChange={(event) => dispatch(promoInputChanged(event.target.value))}
                  autoComplete="off"
                  autoCapitalize="characters"
                  autoCorrect="off"
                  spellCheck={false}
                  size="lg"
                  flex="1 1 12rem"
                  minW="0"
                  aria-describedby={promo.error !== null ? ERROR_ID : undefined}
                />
                <Button
                  type="submit"
                  data-testid="payment-promo-apply"
                  size="lg"
                  colorPalette="purple"
                  variant="outline"
                  flex="0 0 auto"
                  loading={promo.applying}
                  disabled={paying || promo.input.trim() === ''}
                >
                  {t('payment.promo.apply')}
                </Button>
              </Flex>
              {/* Always in the page, so a screen reader announces the reason when it appears. */}
              <Box id={ERROR_ID} role="alert" data-testid="payment-promo-error" color="red.700" fontSize="sm">
                {promo.error}
              </Box>
            </Field.Root>
          </Stack>
        </form>
      )}
    </Box>
  );
}
