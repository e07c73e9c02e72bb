import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { DisplayChoiceMenu } from '../../../components/plain/DisplayChoiceMenu';
import { useT } from '../../language/useT';
import { CURRENCIES } from '../rules';
import { selectCurrencyCode } from '../selectors';
import { currencyChosen } from '../slice';
import styles from './CurrencySelect.module.css';

const SYMBOLS: Record<string, string> = { EUR: '€', KRW: '₩' };

const labelOf = (code: string) => [SYMBOLS[code], code].filter(Boolean).join(' ');

/**
 * The currency chooser of the navigation bar (beyond the spec), posted to the server like the
 * language chooser. Once scripted, the app asks the catalog again in that currency (catalog
 * saga): prices change without reloading.
 */
export function CurrencySelect() {
  const t = useT();
  const dispatch = useAppDispatch();
  const currencyCode = useAppSelector(selectCurrencyCode);

  return (
    <DisplayChoiceMenu
      setting="currency"
      panelTestId="currency-menu"
      summary={<span data-testid="currency-current">{labelOf(currencyCode)}</span>}
      summaryLabel={`${labelOf(currencyCode)}, ${t('currency.label')}`}
      summaryClassName={styles.toggle}
      title={t('currency.label')}
      choices={CURRENCIES.map(({ code }) => ({ value: code, label: `${labelOf(code)} · ${t(`currency.${code}`)}`, current: code === currencyCode }))}
      onChoose={(code) => {
        if (code !== currencyCode) dispatch(currencyChosen(code));
      }}
    />
  );
}
