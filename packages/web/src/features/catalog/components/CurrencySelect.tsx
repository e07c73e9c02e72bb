import { Box, chakra } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { CURRENCIES, isCurrencyCode } from '../rules';
import { selectCurrencyCode } from '../selectors';
import { currencyChosen } from '../slice';

const SYMBOLS: Record<string, string> = { EUR: '€', KRW: '₩' };

/**
 * The currency switch of the navigation bar (beyond the spec): a native select, labelled,
 * keyboard- and screen-reader-friendly on every device. The choice is stored and sent to the
 * server, which answers prices in it (catalog saga).
 */
export function CurrencySelect() {
  const t = useT();
  const dispatch = useAppDispatch();
  const currencyCode = useAppSelector(selectCurrencyCode);

  return (
    <Box position="relative" flexShrink={0}>
      <chakra.select
        data-testid="currency-select"
        aria-label={t('currency.label')}
        title={t('currency.label')}
        value={currencyCode}
        onChange={(event) => {
          const code = event.target.value;
          if (isCurrencyCode(code) && code !== currencyCode) dispatch(currencyChosen(code));
        }}
        appearance="none"
        h="8"
        ps="2.5"
        pe="7"
        borderWidth="1px"
        borderColor="border.emphasized"
        borderRadius="l2"
        bg="bg"
        color="fg"
        fontSize="sm"
        fontWeight="medium"
        cursor="pointer"
        _hover={{ bg: 'bg.subtle' }}
        focusVisibleRing="outside"
      >
        {CURRENCIES.map((currency) => (
          <option key={currency.code} value={currency.code} data-testid={`currency-option-${currency.code}`}>
            {`${SYMBOLS[currency.code] ?? ''} ${currency.code}`.trim()}
          </option>
        ))}
      </chakra.select>
      <chakra.svg
        viewBox="0 0 24 24"
        width="14px"
        height="14px"
        position="absolute"
        insetEnd="2"
        top="50%"
        transform="translateY(-50%)"
        pointerEvents="none"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M6 9l6 6 6-6" />
      </chakra.svg>
    </Box>
  );
}
