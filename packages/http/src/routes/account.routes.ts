/**
 * Account calls: sign-up, log-in (password, Google, Naver, Kakao), e-mail codes, passwords,
 * log-out. The rules (rate limits, lockouts, who may do what) live in core's identity module;
 * every login call answers the same `Login` shape.
 */
import type { Container } from 'inversify';
import { IDENTITY, TOKENS, type AppConfig, type AuthService, type SocialLoginService, type VerificationService } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { visitorCountry } from '../middleware/visitor.js';
import { serializeLogin } from '../serializers/login.serializer.js';
import { call, noContent, type Call } from './call.js';

export function accountCalls(container: Container): Call[] {
  const auth = container.get<AuthService>(IDENTITY.Auth);
  const verification = container.get<VerificationService>(IDENTITY.Verification);
  const social = container.get<SocialLoginService>(IDENTITY.SocialLogin);
  const config = container.get<AppConfig>(TOKENS.Config);
  const { account } = wire;
  return [
    call({
      method: 'get',
      path: '/api/main/loginpagedata',
      access: 'public',
      tag: 'account',
      summary: 'Which social sign-in the login page offers',
      answer: account.loginPageAnswer,
      handler: ({ req }) => ({ country: visitorCountry(req, config) }),
    }),
    call({
      method: 'get',
      path: '/api/user/checkemail',
      access: 'public',
      tag: 'account',
      summary: 'Whether an account exists for the e-mail',
      query: account.checkEmailQuery,
      answer: account.checkEmailAnswer,
      handler: ({ query, context }) => auth.checkEmail(query, context),
    }),
    call({
      method: 'post',
      path: '/api/user/register',
      access: 'public',
      tag: 'account',
      summary: 'Create an account',
      body: account.registerBody,
      answer: account.loginAnswer,
      handler: async ({ body, context }) => serializeLogin(await auth.register(body, context)),
    }),
    call({
      method: 'post',
      path: '/api/user/authenticate',
      access: 'public',
      tag: 'account',
      summary: 'Log in with e-mail and password',
      description: 'rememberMe: a 14-day token instead of 2 days.',
      body: account.authenticateBody,
      answer: account.loginAnswer,
      handler: async ({ body, context }) => serializeLogin(await auth.authenticate(body, context)),
    }),
    call({
      method: 'post',
      path: '/api/user/sendverificationcode',
      access: 'user',
      tag: 'account',
      summary: 'E-mail a 6-digit verification code to your own address',
      body: account.sendCodeBody,
      answer: wire.fields.done(),
      handler: async ({ user, body, context }) => {
        await verification.sendCode(user, body, context);
        return true as const;
      },
    }),
    call({
      method: 'post',
      path: '/api/user/sendverificationcodecallback',
      access: 'public',
      tag: 'account',
      summary: 'Confirm the e-mail with the code (logs in)',
      body: account.verifyCodeBody,
      answer: account.loginAnswer,
      handler: async ({ body, context }) => serializeLogin(await verification.confirmCode(body, context)),
    }),
    call({
      method: 'post',
      path: '/api/user/googleauthenticate',
      access: 'public',
      tag: 'account',
      summary: 'Sign in with a Google ID token (idToken or credential)',
      description: '404 `provider_disabled` when Google sign-in is not configured.',
      body: account.googleBody,
      answer: account.loginAnswer,
      handler: async ({ body, context }) => serializeLogin(await social.googleAuthenticate(body, context)),
    }),
    call({
      method: 'post',
      path: '/api/user/navercallback',
      access: 'public',
      tag: 'account',
      summary: 'Sign in with Naver (authorization code and our signed state)',
      description: '404 `provider_disabled` when Naver login is not configured.',
      body: account.oauthCallbackBody,
      answer: account.loginAnswer,
      handler: async ({ body, context }) => serializeLogin(await social.naverCallback(body, context)),
    }),
    call({
      method: 'post',
      path: '/api/user/kakaocallback',
      access: 'public',
      tag: 'account',
      summary: 'Sign in with Kakao (authorization code and our signed state)',
      description: '404 `provider_disabled` when Kakao login is not configured.',
      extra: true,
      body: account.oauthCallbackBody,
      answer: account.loginAnswer,
      handler: async ({ body, context }) => serializeLogin(await social.kakaoCallback(body, context)),
    }),
    call({
      method: 'get',
      path: '/api/user/socialproviders',
      access: 'public',
      tag: 'account',
      summary: 'The social sign-in providers configured, with their public client ids',
      extra: true,
      answer: account.socialProvidersAnswer,
      handler: () => social.providers(),
    }),
    call({
      method: 'post',
      path: '/api/user/logout',
      access: 'user',
      tag: 'account',
      summary: 'Revoke this token',
      extra: true,
      answer: noContent(),
      handler: ({ user }) => auth.logout(user),
    }),
    call({
      method: 'post',
      path: '/api/user/changepassword',
      access: 'user',
      tag: 'account',
      summary: 'Change the password (ends every other session)',
      extra: true,
      body: account.changePasswordBody,
      answer: account.loginAnswer,
      handler: async ({ user, body }) => serializeLogin(await auth.changePassword(user, body)),
    }),
    call({
      method: 'post',
      path: '/api/user/forgotpassword',
      access: 'public',
      tag: 'account',
      summary: 'E-mail a 6-digit password-reset code',
      description: 'The same answer whether or not the address has an account.',
      extra: true,
      body: account.forgotPasswordBody,
      answer: wire.fields.done(),
      handler: async ({ body, context }) => {
        await verification.requestPasswordReset(body, context);
        return true as const;
      },
    }),
    call({
      method: 'post',
      path: '/api/user/resetpassword',
      access: 'public',
      tag: 'account',
      summary: 'Set a new password with the reset code (ends every session, verifies the e-mail, logs in)',
      extra: true,
      body: account.resetPasswordBody,
      answer: account.loginAnswer,
      handler: async ({ body, context }) => serializeLogin(await verification.resetPassword(body, context)),
    }),
  ];
}
