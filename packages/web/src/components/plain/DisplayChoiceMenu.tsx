/**
 * A chooser of the navigation bar for a display setting (the language, the currency). Plain HTML
 * first: a <details> holding a form posted to the server (DISPLAY_CHOICE_PATH), which stores the
 * choice in the display cookie and sends the visitor back to this page. Once scripted, a choice
 * closes the menu and is the app's to apply (`onChoose`), without the round trip.
 */
import { useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { DISPLAY_CHOICE_PATH, DISPLAY_FIELDS } from '@subshare/core/storefront';
import { buttonClass } from './controls';
import { Disclosure } from './Disclosure';
import styles from './DisplayChoiceMenu.module.css';

export interface DisplayChoice<V extends string> {
  /** What the form posts; also ends the option's test id, `<setting>-option-<value>`. */
  value: V;
  label: string;
  current: boolean;
  /** The option's own language, when its label is in it. */
  lang?: string;
}

interface DisplayChoiceMenuProps<V extends string> {
  /** The form field posted, and the test ids' prefix: `<setting>-chooser`, `<setting>-toggle`. */
  setting: 'language' | 'currency';
  panelTestId: string;
  summary: ReactNode;
  /** The accessible name of the summary: it starts with the visible label (WCAG 2.5.3). */
  summaryLabel: string;
  summaryClassName: string;
  title: string;
  choices: readonly DisplayChoice<V>[];
  onChoose: (value: V) => void;
}

export function DisplayChoiceMenu<V extends string>({
  setting,
  panelTestId,
  summary,
  summaryLabel,
  summaryClassName,
  title,
  choices,
  onChoose,
}: DisplayChoiceMenuProps<V>) {
  const location = useLocation();
  const form = useRef<HTMLFormElement>(null);

  return (
    <Disclosure
      testId={`${setting}-chooser`}
      summaryTestId={`${setting}-toggle`}
      panelTestId={panelTestId}
      summary={summary}
      summaryLabel={summaryLabel}
      summaryClassName={summaryClassName}
    >
      <form ref={form} method="post" action={DISPLAY_CHOICE_PATH} className={styles.form}>
        <input type="hidden" name={DISPLAY_FIELDS.returnTo} value={location.pathname + location.search} />
        <p className={styles.title}>{title}</p>
        {choices.map((choice) => (
          <button
            key={choice.value}
            type="submit"
            name={DISPLAY_FIELDS[setting]}
            value={choice.value}
            data-testid={`${setting}-option-${choice.value}`}
            lang={choice.lang}
            aria-current={choice.current ? 'true' : undefined}
            className={buttonClass({ size: 'md', variant: choice.current ? 'solid' : 'outline' })}
            onClick={(event) => {
              event.preventDefault();
              const details = form.current?.closest('details');
              if (details) details.open = false;
              onChoose(choice.value);
            }}
          >
            {choice.label}
          </button>
        ))}
      </form>
    </Disclosure>
  );
}
