import type { Request, Response } from 'express';
import type { Container } from 'inversify';
import * as yup from 'yup';
import { IDENTITY, type AuthService, type SocialLoginService, type VerificationService } from '@subshare/core';
import { currentUser, requestContext } from '../middleware/auth.js';
import { languageId } from '../schemas/parse.js';
import { parse } from '../schemas/parse.js';
import { serializeLogin } from '../serializers/login.serializer.js';

const registerLanguage = yup.object({ languageId: languageId.default(1) });

export function userHandlers(container: Container) {
  const auth = container.get<AuthService>(IDENTITY.Auth);
  const verification = container.get<VerificationService>(IDENTITY.Verification);
  const social = container.get<SocialLoginService>(IDENTITY.SocialLogin);

  return {
    /** GET /api/user/checkemail?email → true when an account exists */
    checkEmail: (req: Request) => auth.checkEmail(req.query, requestContext(req)),
    /** POST /api/user/register { email, password, languageId } */
    register: async (req: Request) => {
      const { languageId: language } = parse(registerLanguage, req.body);
      return serializeLogin(await auth.register(req.body, language === 2 ? 2 : 1, requestContext(req)));
    },
    /** POST /api/user/authenticate { email, password, rememberMe? } */
    authenticate: async (req: Request) => serializeLogin(await auth.authenticate(req.body, requestContext(req))),
    /** POST /api/user/sendverificationcode { email } (auth) */
    sendVerificationCode: async (req: Request, res: Response) => {
      await verification.sendCode(currentUser(res), req.body, requestContext(req));
      return true;
    },
    /** POST /api/user/sendverificationcodecallback { email, code } */
    confirmVerificationCode: async (req: Request) => serializeLogin(await verification.confirmCode(req.body, requestContext(req))),
    /** POST /api/user/googleauthenticate { idToken } (the spec's social-user payload) */
    googleAuthenticate: async (req: Request) => serializeLogin(await social.googleAuthenticate(req.body, requestContext(req))),
    /** POST /api/user/navercallback { code, state } */
    naverCallback: async (req: Request) => serializeLogin(await social.naverCallback(req.body, requestContext(req))),
    /** POST /api/user/kakaocallback { code, state } (implemented, not on the screen) */
    kakaoCallback: async (req: Request) => serializeLogin(await social.kakaoCallback(req.body, requestContext(req))),
    /** GET /api/user/socialproviders: which social buttons to show */
    socialProviders: () => social.providers(),
    /** POST /api/user/logout (auth): revokes this token */
    logout: async (_req: Request, res: Response) => {
      await auth.logout(currentUser(res));
      res.status(204).end();
    },
    /** POST /api/user/forgotpassword { email }: mails a reset code; the same `true` whether or not the address has an account */
    forgotPassword: async (req: Request) => {
      await verification.requestPasswordReset(req.body, requestContext(req));
      return true;
    },
    /** POST /api/user/resetpassword { email, code, password }: sets the password, ends every session, logs in */
    resetPassword: async (req: Request) => serializeLogin(await verification.resetPassword(req.body, requestContext(req))),
    /** POST /api/user/changepassword { currentPassword, newPassword } (auth): ends every other session */
    changePassword: async (req: Request, res: Response) => serializeLogin(await auth.changePassword(currentUser(res), req.body)),
  };
}
