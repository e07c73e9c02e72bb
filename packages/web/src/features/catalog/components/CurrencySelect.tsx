import { DISPLAY_CHOICE_PATH, DISPLAY_FIELDS } from '@subshare/core/storefront';
import { useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { buttonClass } from '../../../components/plain/controls';
import { Disclosure } from '../../../components/plain/Disclosure';
import { useT } from '../../language/useT';
import { CURRENCIES } from '../rules';
import { selectCurrencyCode } from '../selectors';
import { currencyChosen } from '../slice';
import styles from './CurrencySelect.module.css';

const SYMBOLS: Record<string, string> = { EUR: '€', KRW: '₩' };

const labelOf = (code: string) => [SYMBOLS[code], code].filter(Boolean).join(' ');

/**
 * The currency chooser of the navigation bar (beyond the spec). Plain HTML first, like the
 * language chooser: a <details> holding a form posted to the server, which stores the choice in
 * the display cookie and sends the visitor back to this page with prices in it. Once scripted, a
 * choice is stored and sent to the server by the app, which answers prices in it (catalog saga),
 * without reloading.
 */
export function CurrencySelect() {
  const t = useT();
  const dispatch = useAppDispatch();
  const currencyCode = useAppSelector(selectCurrencyCode);
  const location = useLocation();
  const form = useRef<HTMLFormElement>(null);

  return (
    <Disclosure
      testId="currency-chooser"
      summaryTestId="currency-toggle"
      panelTestId="currency-menu"
      summary={<span data-testid="currency-current">{labelOf(currencyCode)}</span>}
      summaryLabel={`${labelOf(currencyCode)}, ${t('currency.label')}`}
      summaryClassName={styles.toggle}
    >
      <form ref={form} method="post" action={DISPLAY_CHOICE_PATH} className={styles.form}>
        <input type="hidden" name={DISPLAY_FIELDS.returnTo} value={location.pathname + location.search} />
        <p className={styles.title}>{t('currency.label')}</p>
        {CURRENCIES.map((currency) => (
          <button
            key={currency.code}
            type="submit"
            name={DISPLAY_FIELDS.currency}
            value={currency.code}
            data-testid={`currency-option-${currency.code}`}
            aria-current={currency.code === currencyCode ? 'true' : undefined}
            className={buttonClass({ size: 'md', variant: currency.code === currencyCode ? 'solid' : 'outline' })}
            onClick={(event) => {
              // Scripted: the app asks the catalog again in that currency; the page stays.
              event.preventDefault();
              const details = form.current?.closest('details');
              if (details) details.open = false;
              if (currency.code !== currencyCode) dispatch(currencyChosen(currency.code));
            }}
          >
            {`${labelOf(currency.code)} · ${t(`currency.${currency.code}`)}`}
          </button>
        ))}
      </form>
    </Disclosure>
  );
}
