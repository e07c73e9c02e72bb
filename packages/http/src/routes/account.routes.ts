/**
 * Account calls: sign-up, log-in (password, Google, Naver, Kakao), e-mail codes, passwords,
 * log-out. The rules (rate limits, lockouts, who may do what) live in core's identity module;
 * every login call answers the same `Login` shape.
 */
import type { Container } from 'inversify';
import { TOKENS, type AppConfig, AuthService, ReferralFlow, SocialLoginService, VerificationService } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { visitorCountry } from '../middleware/visitor.js';
import { serializeLogin } from '../serializers/login.serializer.js';
import { bind, type Call } from './call.js';

export function accountCalls(container: Container): Call[] {
  const auth = container.get(AuthService);
  const verification = container.get(VerificationService);
  const social = container.get(SocialLoginService);
  // A sign-up records the referral code it carried (flows/referral.flow.ts).
  const referral = container.get(ReferralFlow);
  const config = container.get<AppConfig>(TOKENS.Config);
  return [
    bind(calls.account.getLoginPageData, ({ req }) => ({ country: visitorCountry(req, config) })),
    bind(calls.account.checkEmail, ({ query, context }) => auth.checkEmail(query, context)),
    bind(calls.account.register, async ({ body, context }) =>
      serializeLogin(await referral.afterSignIn(await auth.register(body, context), body.referralCode)),
    ),
    bind(calls.account.authenticate, async ({ body, context }) => serializeLogin(await auth.authenticate(body, context))),
    bind(calls.account.sendVerificationCode, async ({ user, body, context }) => {
      await verification.sendCode(user, body, context);
      return true as const;
    }),
    bind(calls.account.confirmVerificationCode, async ({ body, context }) => serializeLogin(await verification.confirmCode(body, context))),
    bind(calls.account.googleAuthenticate, async ({ body, context }) =>
      serializeLogin(await referral.afterSignIn(await social.googleAuthenticate(body, context), body.referralCode)),
    ),
    bind(calls.account.naverCallback, async ({ body, context }) =>
      serializeLogin(await referral.afterSignIn(await social.naverCallback(body, context), body.referralCode)),
    ),
    bind(calls.account.kakaoCallback, async ({ body, context }) =>
      serializeLogin(await referral.afterSignIn(await social.kakaoCallback(body, context), body.referralCode)),
    ),
    bind(calls.account.getSocialProviders, () => social.providers()),
    bind(calls.account.logout, ({ user }) => auth.logout(user)),
    bind(calls.account.changePassword, async ({ user, body }) => serializeLogin(await auth.changePassword(user, body))),
    bind(calls.account.forgotPassword, async ({ body, context }) => {
      await verification.requestPasswordReset(body, context);
      return true as const;
    }),
    bind(calls.account.resetPassword, async ({ body, context }) => serializeLogin(await verification.resetPassword(body, context))),
  ];
}
