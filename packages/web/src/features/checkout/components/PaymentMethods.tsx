import { Box, Button, Heading } from '@chakra-ui/react';
import type { PaymentMethodId } from '../../../services/api/payment';
import { CHECKOUT_TEXTS } from '../texts';
import { useT } from '../../language/useT';
import { LineIcon } from '../../../components/plain/LineIcon';

interface PaymentMethodsProps {
  methods: readonly PaymentMethodId[];
  selected: PaymentMethodId | null;
  disabled: boolean;
  onSelect: (method: PaymentMethodId) => void;
}

function Check() {
  return (
    <LineIcon size={18} strokeWidth={3}>
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </LineIcon>
  );
}

/** The order's payment methods as toggle buttons (`aria-pressed`); the chosen one is filled and ticked. */
export function PaymentMethods({ methods, selected, disabled, onSelect }: PaymentMethodsProps) {
  const t = useT(CHECKOUT_TEXTS);
  return (
    <Box as="section" aria-labelledby="payment-methods-heading">
      <Heading as="h2" id="payment-methods-heading" size="lg" mb="3">
        {t('payment.methods')}
      </Heading>
      <Box
        role="group"
        aria-labelledby="payment-methods-heading"
        data-testid="payment-methods"
        display="grid"
        gridTemplateColumns={{ base: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' }}
        gap="3"
      >
        {methods.map((method) => {
          const pressed = method === selected;
          return (
            <Button
              key={method}
              data-testid="payment-method"
              data-method={method}
              aria-pressed={pressed}
              variant={pressed ? 'solid' : 'outline'}
              colorPalette="purple"
              size="lg"
              h="auto"
              minH="14"
              py="3"
              whiteSpace="normal"
              textAlign="start"
              justifyContent="space-between"
              disabled={disabled}
              onClick={() => onSelect(method)}
            >
              {t(`payment.method.${method}`)}
              {pressed && <Check />}
            </Button>
          );
        })}
      </Box>
    </Box>
  );
}
