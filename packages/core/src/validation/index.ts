/**
 * Form rules shared by the server and the web client (spec section 5), so that both refuse
 * exactly the same input. Pure yup: no Node or browser APIs. The client passes its own
 * translated messages; the server uses the English ones.
 */
import * as yup from 'yup';
import { PROBLEM_KINDS, PROBLEM_NOTE_MAX, type ProblemKind } from './problem-reports.js';
import { ACCOUNT_SLOTS, CODE_DIGITS, PASSWORD_LENGTH, REGISTER_PAGE_PASSWORD_LENGTH } from '../promises/index.js';

export interface ValidationMessages {
  required: string;
  email: string;
  minLength: (min: number) => string;
  maxLength: (max: number) => string;
  notSame: string;
}

export const ENGLISH_MESSAGES: ValidationMessages = {
  required: 'This field is required.',
  email: 'Enter a valid e-mail address.',
  minLength: (min) => `Use at least ${min} characters.`,
  maxLength: (max) => `Use at most ${max} characters.`,
  notSame: 'The passwords are not the same.',
};

export const LIMITS = {
  userPassword: PASSWORD_LENGTH,
  accountPassword: { min: 6, max: 18 },
  /** The unused register page's own rules (spec section 5). */
  unusedRegisterPassword: REGISTER_PAGE_PASSWORD_LENGTH,
  personName: { min: 2, max: 20 },
  verificationCode: { length: CODE_DIGITS },
  slots: ACCOUNT_SLOTS,
  email: { max: 254 },
} as const;

// A practical e-mail shape: something@domain.tld, no spaces; yup's own check is looser.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const email = (m: ValidationMessages = ENGLISH_MESSAGES) =>
  yup.string().trim().lowercase().required(m.required).max(LIMITS.email.max, m.maxLength(LIMITS.email.max)).matches(EMAIL_PATTERN, m.email).email(m.email);

const password = (m: ValidationMessages, limits: { min: number; max: number }) =>
  yup.string().required(m.required).min(limits.min, m.minLength(limits.min)).max(limits.max, m.maxLength(limits.max));

export const userPassword = (m: ValidationMessages = ENGLISH_MESSAGES) => password(m, LIMITS.userPassword);

/** The password typed again, on the client's forms that set one: it must equal `password`. */
const passwordConfirmation = (m: ValidationMessages) =>
  yup
    .string()
    .required(m.required)
    .oneOf([yup.ref('password')], m.notSame);

/** A first or last name on the unused register page. */
const personName = (m: ValidationMessages) =>
  yup
    .string()
    .trim()
    .required(m.required)
    .min(LIMITS.personName.min, m.minLength(LIMITS.personName.min))
    .max(LIMITS.personName.max, m.maxLength(LIMITS.personName.max));

export const checkEmailSchema = (m: ValidationMessages = ENGLISH_MESSAGES) => yup.object({ email: email(m) });

export const loginSchema = (m: ValidationMessages = ENGLISH_MESSAGES) =>
  yup.object({ email: email(m), password: userPassword(m), rememberMe: yup.boolean().default(false) });

export const registerSchema = (m: ValidationMessages = ENGLISH_MESSAGES) => yup.object({ email: email(m), password: userPassword(m) });

/** The client's register step also asks to confirm the password. */
export const registerFormSchema = (m: ValidationMessages = ENGLISH_MESSAGES) =>
  registerSchema(m).shape({
    confirmPassword: passwordConfirmation(m),
  });

export const verificationCodeSchema = (m: ValidationMessages = ENGLISH_MESSAGES) =>
  yup.object({
    email: email(m),
    code: yup.string().trim().required(m.required).max(LIMITS.verificationCode.length, m.maxLength(LIMITS.verificationCode.length)),
  });

export const changePasswordSchema = (m: ValidationMessages = ENGLISH_MESSAGES) =>
  yup.object({ currentPassword: yup.string().required(m.required), newPassword: userPassword(m) });

/** Forgot password, step 1: the address the reset code goes to. */
export const forgotPasswordSchema = (m: ValidationMessages = ENGLISH_MESSAGES) => yup.object({ email: email(m) });

/** Forgot password, step 2: the code from the e-mail and the new password (the sign-up rules). */
export const resetPasswordSchema = (m: ValidationMessages = ENGLISH_MESSAGES) => verificationCodeSchema(m).shape({ password: userPassword(m) });

/** The client's reset step also asks to confirm the new password. */
export const resetPasswordFormSchema = (m: ValidationMessages = ENGLISH_MESSAGES) =>
  resetPasswordSchema(m).shape({
    confirmPassword: passwordConfirmation(m),
  });

/** The register page that exists but is not wired (spec section 5: names 2–20, password 8–12). */
export const unusedRegisterSchema = (m: ValidationMessages = ENGLISH_MESSAGES) =>
  yup.object({
    firstName: personName(m),
    lastName: personName(m),
    email: email(m),
    password: password(m, LIMITS.unusedRegisterPassword),
    confirmPassword: passwordConfirmation(m),
  });

/** The invitation e-mail form of the panel. */
export const invitationEmailSchema = (m: ValidationMessages = ENGLISH_MESSAGES) => yup.object({ email: email(m) });

/** The panel's "it doesn't work" form (issue 33): one of the kinds, an optional note. */
export const problemReportSchema = (m: ValidationMessages = ENGLISH_MESSAGES) =>
  yup.object({
    kind: yup
      .string()
      .required(m.required)
      .oneOf([...PROBLEM_KINDS], m.required) as unknown as yup.StringSchema<ProblemKind>,
    note: yup.string().trim().max(PROBLEM_NOTE_MAX, m.maxLength(PROBLEM_NOTE_MAX)),
  });

/** Admin "create subscription" (a platform account): spec section 5. */
export const platformAccountSchema = (m: ValidationMessages = ENGLISH_MESSAGES) =>
  yup.object({
    platformId: yup.number().typeError(m.required).required(m.required).integer().min(1, m.required),
    email: email(m),
    password: password(m, LIMITS.accountPassword),
    slotsCount: yup.number().typeError(m.required).required(m.required).integer().min(LIMITS.slots.min).max(LIMITS.slots.max),
    femail: email(m),
  });

export * from './catalog.js';

export { particleFor, withParticle, isKoreanParticle, type KoreanParticle } from './korean-particles.js';
export * from './alert-rules.js';
export * from './problem-reports.js';
export * from './mail-trust.js';
export * from './audit-actions.js';
