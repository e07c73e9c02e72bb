/**
 * Guards: who may call a route, decided on the server for every request. The token proves
 * who the caller is; their role is read from the database each time, so a demoted admin
 * loses access at once. No token or a bad one: 401. Wrong role: 403.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Container } from 'inversify';
import { ROLES, UnauthenticatedError, type AuditActor, AuthService, type AuthenticatedUser, type RequestContext, fail } from '@subshare/core';
import type { Access } from '../routes/call.js';

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;

/** The access levels that need a signed-in caller. */
export type SignedInAccess = Exclude<Access, 'public' | 'provider'>;

export function currentUser(res: Response): AuthenticatedUser {
  const user = res.locals.user as AuthenticatedUser | undefined;
  if (!user) throw new UnauthenticatedError();
  return user;
}

export function requestContext(req: Request): RequestContext {
  return { ip: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
}

/** The logged-in staff member as the audit log names them. */
export function auditActor(req: Request, res: Response): AuditActor {
  return auditActorOf(currentUser(res), requestContext(req));
}

/** The same, from the caller and the request's context. */
export function auditActorOf(user: AuthenticatedUser, context: RequestContext): AuditActor {
  return { userId: user.id, label: user.email, ip: context.ip };
}

/**
 * The caller behind an Authorization header, if they may make a call of this access: 401 without
 * a valid token of a live session, 403 without the e-mail verified or the role the call needs.
 */
export async function authorizedCaller(auth: AuthService, authorization: string | undefined, access: SignedInAccess): Promise<AuthenticatedUser> {
  const match = BEARER.exec(authorization ?? '');
  if (!match) throw fail('missing_token');
  const user = await auth.authenticateToken(match[1]);
  if (access === 'verified' && !user.isEmailVerified) throw fail('email_not_verified');
  const minimum = access === 'staff' ? ROLES.moderator : access === 'admin' ? ROLES.admin : undefined;
  if (minimum !== undefined && user.role < minimum) throw fail('forbidden');
  return user;
}

export interface Guards {
  /** Anyone, logged in or not. */
  public: RequestHandler[];
  /** A logged-in user. */
  user: RequestHandler[];
  /** A logged-in user whose e-mail is verified (ordering and paying). */
  verified: RequestHandler[];
  /** Moderator or admin. */
  staff: RequestHandler[];
  /** Admin only. */
  admin: RequestHandler[];
}

export function guards(container: Container): Guards {
  const auth = container.get(AuthService);
  const allow =
    (access: SignedInAccess): RequestHandler =>
    (req: Request, res: Response, next: NextFunction) => {
      authorizedCaller(auth, req.get('authorization'), access).then((user) => {
        res.locals.user = user;
        next();
      }, next);
    };
  return { public: [], user: [allow('user')], verified: [allow('verified')], staff: [allow('staff')], admin: [allow('admin')] };
}
