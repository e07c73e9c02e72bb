/**
 * The element of the first HTML that holds the Redux state the server rendered the page from.
 * (A module of its own: main.tsx, the small entry, reads it, and no other chunk's code may be
 * pulled into the entry through a shared module; see vite.config.ts.)
 */
export const STATE_ELEMENT_ID = 'ssr-state';
