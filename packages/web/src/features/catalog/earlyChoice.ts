/**
 * The app's side of app/earlyChoices.ts: the choices the visitor made on the server's markup
 * before hydration, received from the entry when the page hydrates (app/startReact.tsx) and taken
 * by the option groups when they mount. A page rendered afresh has none.
 */
import type { EarlyChoices } from '../../app/earlyChoices';

let recorded: EarlyChoices | null = null;

export function receiveEarlyChoices(choices: EarlyChoices): void {
  recorded = choices;
}

/** The value of the radio group `name` the visitor chose before it was hydrated, once. */
export function takeEarlyChoice(name: string): string | undefined {
  return recorded?.take(name);
}
