/**
 * `text` with each `{name}` replaced by `params[name]`. A sentence whose placeholder has no value
 * is left out ("The code is not correct. {triesLeft} tries left." without `triesLeft` says only
 * the first sentence). The web fills its translations with the same function.
 *
 * A module of its own, apart from the error dictionary (wire/errors.ts): the web's first download
 * fills its Korean error texts with it and must not carry every English message.
 */
export function fillIn(text: string, params: Readonly<Record<string, string | number>> | undefined): string {
  const has = (name: string) => params !== undefined && Object.hasOwn(params, name);
  return text
    .split(/(?<=[.!?。])\s+/)
    .filter((sentence) => [...sentence.matchAll(/\{(\w+)\}/g)].every(([, name]) => has(name!)))
    .join(' ')
    .replace(/\{(\w+)\}/g, (_whole, name: string) => String(params![name]));
}
