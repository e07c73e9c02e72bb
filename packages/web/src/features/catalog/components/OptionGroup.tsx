import { useEffect, useRef, type CSSProperties } from 'react';
import { takeEarlyChoice } from '../earlyChoice';
import { readableTextColor } from '../../../components/ui/color';
import styles from './OptionGroup.module.css';

export interface Option {
  id: number;
  name: string;
  /** A second line, e.g. the price per month of a duration. */
  detail?: string;
}

interface OptionGroupProps {
  /** "type" or "duration": names the radios and the test ids (`type-option`, `duration-option`). */
  kind: 'type' | 'duration';
  legend: string;
  options: readonly Option[];
  selectedId: number;
  /** The platform's second colour: border of the chosen option and its tick. */
  accent: string;
  onSelect: (id: number) => void;
}

function Tick({ checked, accent }: { checked: boolean; accent: string }) {
  return (
    <div
      data-testid={checked ? 'option-tick' : undefined}
      aria-hidden="true"
      className={checked ? `${styles.tick} ${styles.checked}` : styles.tick}
      style={{ color: readableTextColor(accent) }}
    >
      {checked && (
        <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 12.5l4.5 4.5L19 7.5" />
        </svg>
      )}
    </div>
  );
}

/**
 * One choice of the platform page (plan type or duration): a real radio group (a fieldset of
 * native radios, so arrows, Tab and screen readers work as everywhere else), drawn as cards;
 * the chosen card is outlined in the platform's colour and ticked.
 */
export function OptionGroup({ kind, legend, options, selectedId, accent, onSelect }: OptionGroupProps) {
  const name = `platform-${kind}`;
  const group = useRef<HTMLFieldSetElement>(null);

  // A choice made on the server's markup before hydration (app/earlyChoices.ts; or the radio the
  // browser checked, which React keeps while hydrating without firing a change). Replayed here,
  // once, so the price and the payment follow what the visitor chose (issue 14).
  useEffect(() => {
    const checked = group.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked');
    const id = Number(takeEarlyChoice(name) ?? checked?.value ?? NaN);
    if (id !== selectedId && options.some((option) => option.id === id)) onSelect(id);
    // Only the state found at the first commit counts; later changes come through onChange.
  }, []);

  return (
    <fieldset ref={group} data-testid={`platform-${kind}-options`} className={styles.group} style={{ '--accent': accent } as CSSProperties}>
      <legend className={styles.legend}>{legend}</legend>
      <div className={styles.options}>
        {options.map((option) => {
          const checked = option.id === selectedId;
          return (
            <label
              key={option.id}
              data-testid={`${kind}-option`}
              data-option-id={option.id}
              data-selected={checked}
              className={checked ? `${styles.option} ${styles.checked}` : styles.option}
            >
              <input
                type="radio"
                name={name}
                value={option.id}
                checked={checked}
                onChange={() => onSelect(option.id)}
                data-testid={`${kind}-option-input`}
                className={styles.input}
              />
              <Tick checked={checked} accent={accent} />
              <div className={styles.texts}>
                <p className={styles.name}>{option.name}</p>
                {option.detail && (
                  <p data-testid={`${kind}-option-detail`} className={styles.detail}>
                    {option.detail}
                  </p>
                )}
              </div>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
