/**
 * Choices made on the server's markup before React has hydrated it: a radio the visitor picks
 * then changes in the browser, but React fires no change for it, and if the click comes while
 * React is hydrating, React even sets the radio back to its state. main.tsx starts listening at
 * once (this module is in the small entry); the option groups take their choice when they mount
 * (catalog/components/OptionGroup.tsx); from then on React handles that group's changes. Not
 * "once the root has committed": React hydrates a Suspense boundary (the routed page) after the
 * root, and a click on it in between is hydrated and replayed without a change either.
 */
const choices = new Map<string, string>();
const live = new Set<string>();

export function recordEarlyChoices(): void {
  // The click, in the capture phase on the document (before React's listener on the root): a
  // click that makes React hydrate the group at once is replayed to it with no change to see.
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target instanceof Element ? event.target : null;
      const input =
        target instanceof HTMLInputElement && target.type === 'radio'
          ? target
          : target?.closest('label')?.querySelector<HTMLInputElement>('input[type="radio"]');
      if (input?.name && !input.disabled && !live.has(input.name)) choices.set(input.name, input.value);
    },
    true,
  );
}

/**
 * The radios checked in the server's markup right before hydration: a click made before any
 * script ran (the listener was not there yet) shows only here, and hydration would undo it (React
 * sets each radio's default, which checks the server's choice again in a group nobody marked).
 */
export function snapshotCheckedRadios(root: ParentNode): void {
  for (const input of root.querySelectorAll<HTMLInputElement>('input[type="radio"]:checked')) {
    if (input.name && !live.has(input.name)) choices.set(input.name, input.value);
  }
}

/** The value of the radio group `name` the visitor chose before it was hydrated, once; React has it from now on. */
export function takeEarlyChoice(name: string): string | undefined {
  live.add(name);
  const value = choices.get(name);
  choices.delete(name);
  return value;
}
