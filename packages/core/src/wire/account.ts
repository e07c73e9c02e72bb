/**
 * Account calls (`/api/user/*` and the login page's data): sign-up, log-in, e-mail codes,
 * passwords, social sign-in. The form rules are the ones the web's forms use
 * (validation/index.ts), so both sides refuse the same input with the same words.
 */
import * as yup from 'yup';
import {
  changePasswordSchema,
  checkEmailSchema,
  email,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  verificationCodeSchema,
} from '../validation/index.js';
import { dateTime, flag, integer, languageId, numberOf, text } from './fields.js';
import { referralCodeField } from './referrals.js';

export const checkEmailQuery = checkEmailSchema();
/** The account's language is that of its e-mails (1 English, 2 Korean). */
/** `referralCode`: the code the storefront kept from `/?ref=` (ignored when it names nobody). */
export const registerBody = registerSchema().shape({ languageId: languageId.default(1), referralCode: referralCodeField });
export const authenticateBody = loginSchema();
/** The address, when given, must be the caller's own. */
export const sendCodeBody = yup.object({ email: email().optional() });
export const verifyCodeBody = verificationCodeSchema();
export const changePasswordBody = changePasswordSchema();
export const forgotPasswordBody = forgotPasswordSchema();
export const resetPasswordBody = resetPasswordSchema();
/** The spec's social-user payload carries the ID token as `idToken`; Google's own redirect mode calls it `credential`. One of them is needed. */
export const googleBody = yup.object({ idToken: yup.string().trim().max(8192), credential: yup.string().trim().max(8192), referralCode: referralCodeField });
/** Naver and Kakao send the browser back with an authorization code and our signed `state`. */
export const oauthCallbackBody = yup.object({
  code: yup.string().trim().required('code is required').max(2048),
  state: yup.string().trim().required('state is required').max(512),
  /** The referral code the storefront kept (`/?ref=`), for a first sign-in that makes the account. */
  referralCode: referralCodeField,
});

/** What every login call answers (product.md): the token and who it belongs to. */
export const loginAnswer = yup
  .object({
    id: integer(),
    token: text(),
    tokenExpiration: dateTime(),
    isEmailVerified: flag(),
    photoUrl: yup.string().nullable().defined(),
    /** 0 buyer, 1 moderator, 2 admin. */
    role: numberOf([0, 1, 2] as const).defined(),
  })
  .meta({ name: 'Login' });
/** Whether an account exists for the address. */
export const checkEmailAnswer = flag();
/** The social buttons the login page may show; `null` hides one. Naver's and Kakao's URLs carry a signed, single-use `state`. */
export const socialProvidersAnswer = yup.object({
  google: yup.object({ clientId: text() }).nullable().defined(),
  naver: yup.object({ authorizeUrl: text() }).nullable().defined(),
  kakao: yup.object({ authorizeUrl: text() }).nullable().defined(),
});
export const loginPageAnswer = yup.object({
  country: yup
    .string()
    .oneOf(['KR', 'GLOBAL'] as const)
    .defined(),
});

export type CheckEmailInput = yup.InferType<typeof checkEmailQuery>;
export type RegisterInput = yup.InferType<typeof registerBody>;
export type AuthenticateInput = yup.InferType<typeof authenticateBody>;
export type SendCodeInput = yup.InferType<typeof sendCodeBody>;
export type VerifyCodeInput = yup.InferType<typeof verifyCodeBody>;
export type ChangePasswordInput = yup.InferType<typeof changePasswordBody>;
export type ForgotPasswordInput = yup.InferType<typeof forgotPasswordBody>;
export type ResetPasswordInput = yup.InferType<typeof resetPasswordBody>;
export type GoogleSignInInput = yup.InferType<typeof googleBody>;
export type OAuthCallbackInput = yup.InferType<typeof oauthCallbackBody>;
export type LoginAnswer = yup.InferType<typeof loginAnswer>;
export type SocialProvidersAnswer = yup.InferType<typeof socialProvidersAnswer>;
