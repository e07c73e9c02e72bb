import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { CURRENCIES, isCurrencyCode } from '../rules';
import { selectCurrencyCode } from '../selectors';
import { currencyChosen } from '../slice';
import styles from './CurrencySelect.module.css';

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
    <div className={styles.wrap}>
      <select
        data-testid="currency-select"
        aria-label={t('currency.label')}
        title={t('currency.label')}
        value={currencyCode}
        onChange={(event) => {
          const code = event.target.value;
          if (isCurrencyCode(code) && code !== currencyCode) dispatch(currencyChosen(code));
        }}
        className={styles.select}
      >
        {CURRENCIES.map((currency) => (
          <option key={currency.code} value={currency.code} data-testid={`currency-option-${currency.code}`}>
            {`${SYMBOLS[currency.code] ?? ''} ${currency.code}`.trim()}
          </option>
        ))}
      </select>
      <svg
        viewBox="0 0 24 24"
        width="14px"
        height="14px"
        className={styles.chevron}
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M6 9l6 6 6-6" />
      </svg>
    </div>
  );
}
