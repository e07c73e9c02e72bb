import { CHOICE_FIELDS } from '@subshare/core/storefront';
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

/** Drawn from the radio's own `:checked` state (CSS), so a choice shows before any script runs. */
function Tick({ checked, accent }: { checked: boolean; accent: string }) {
  return (
    <span data-testid={checked ? 'option-tick' : undefined} aria-hidden="true" className={styles.tick} style={{ color: readableTextColor(accent) }}>
      <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round">
        <path d="M5 12.5l4.5 4.5L19 7.5" />
      </svg>
    </span>
  );
}

/**
 * One choice of the platform page (plan type or duration): a real radio group (a fieldset of
 * native radios named as the platform form's fields, so arrows, Tab, screen readers and a form
 * submitted without script work as everywhere else), drawn as cards; the chosen card is
 * outlined in the platform's colour and ticked, by CSS from the radio's `:checked`, so a tap
 * shows at once, before hydration too. Labels hold phrasing content only (spans).
 */
export function OptionGroup({ kind, legend, options, selectedId, accent, onSelect }: OptionGroupProps) {
  const name = CHOICE_FIELDS[kind];
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
            <label key={option.id} data-testid={`${kind}-option`} data-option-id={option.id} data-selected={checked} className={styles.option}>
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
              <span className={styles.texts}>
                <span className={styles.name}>{option.name}</span>
                {option.detail && (
                  <span data-testid={`${kind}-option-detail`} className={styles.detail}>
                    {option.detail}
                  </span>
                )}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
