/**
 * Choices made on the server's markup before React has hydrated it: a radio the visitor picks
 * then changes in the browser, but React fires no change for it, and if the click comes while
 * React is hydrating, React even sets the radio back to its state. main.tsx starts listening at
 * once (this module is in the small entry); the option groups take their choice when they mount
 * (catalog/components/OptionGroup.tsx). Once the root has committed, React handles every change.
 */
const choices = new Map<string, string>();

export function recordEarlyChoices(): void {
  document.addEventListener(
    'change',
    (event) => {
      if (document.documentElement.hasAttribute('data-hydrated')) return;
      const target = event.target;
      if (target instanceof HTMLInputElement && target.type === 'radio' && target.checked) choices.set(target.name, target.value);
    },
    true,
  );
}

/** The value of the radio group `name` the visitor chose before hydration, once. */
export function takeEarlyChoice(name: string): string | undefined {
  const value = choices.get(name);
  choices.delete(name);
  return value;
}
