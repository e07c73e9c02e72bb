/** The element of the first HTML that holds the Redux state the server rendered the page from. */
export const STATE_ELEMENT_ID = 'ssr-state';
