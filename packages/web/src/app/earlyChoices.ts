/**
 * Choices made on the server's markup before React has hydrated it: a radio the visitor picks
 * then changes in the browser, but React fires no change for it, and if the click comes while
 * React is hydrating, React even sets the radio back to its state. main.tsx starts listening at
 * once (this module is in the small entry) and hands what was recorded to the app when it
 * hydrates (app/startReact.tsx); the option groups take their choice when they mount
 * (catalog/earlyChoice.ts, catalog/components/OptionGroup.tsx); from then on React handles that
 * group's changes. The app's code imports nothing from here: a module shared with the app would
 * be bundled with the app's chunk, which the entry would then have to load before the page's
 * first paint (vite.config.ts). Not
 * "once the root has committed": React hydrates a Suspense boundary (the routed page) after the
 * root, and a click on it in between is hydrated and replayed without a change either.
 */
/** What was chosen before hydration, handed from the entry to the app. */
export interface EarlyChoices {
  /**
   * Notes the radios checked in the server's markup right before hydration: a click made before
   * any script ran (the listener was not there yet) shows only there, and hydration would undo it
   * (React sets each radio's default, which checks the server's choice again in a group nobody marked).
   */
  snapshotCheckedRadios(root: ParentNode): void;
  /** The value of the radio group `name` the visitor chose before it was hydrated, once; React has it from now on. */
  take(name: string): string | undefined;
}

export function recordEarlyChoices(): EarlyChoices {
  const choices = new Map<string, string>();
  const live = new Set<string>();
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
  return {
    snapshotCheckedRadios(root) {
      for (const input of root.querySelectorAll<HTMLInputElement>('input[type="radio"]:checked')) {
        if (input.name && !live.has(input.name)) choices.set(input.name, input.value);
      }
    },
    take(name) {
      live.add(name);
      const value = choices.get(name);
      choices.delete(name);
      return value;
    },
  };
}
