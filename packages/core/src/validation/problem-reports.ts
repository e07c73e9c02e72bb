/**
 * A buyer's "it doesn't work" (issue 33): the kinds of problem a buyer can report on an active
 * subscription, and the bound of the note. Shared by the wire, the database check and the panel.
 */
export const PROBLEM_KINDS = ['cantLogIn', 'wrongPassword', 'profileTaken', 'tooManyScreens', 'other'] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

/** The longest note a buyer can add (characters); the database refuses a longer one too. */
export const PROBLEM_NOTE_MAX = 500;

/** A buyer reports once per subscription within this window; reports of different buyers within it add up. */
export const PROBLEM_REPORT_WINDOW_MS = 3600_000;

/** The circuit breaker's window: the breaks of one platform's accounts counted together. */
export const BREAKER_WINDOW_MS = 3600_000;
