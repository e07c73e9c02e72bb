/**
 * Guards: who may call a route, decided on the server for every request. The token proves
 * who the caller is; their role is read from the database each time, so a demoted admin
 * loses access at once. No token or a bad one: 401. Wrong role: 403.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Container } from 'inversify';
import {
  ForbiddenError,
  IDENTITY,
  ROLES,
  UnauthenticatedError,
  type AuditActor,
  type AuthService,
  type AuthenticatedUser,
  type RequestContext,
  type Role,
} from '@subshare/core';

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;

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
  const user = currentUser(res);
  return { userId: user.id, label: user.email, ip: requestContext(req).ip };
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
  const auth = container.get<AuthService>(IDENTITY.Auth);

  const authenticate: RequestHandler = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const match = BEARER.exec(req.get('authorization') ?? '');
      if (!match) throw new UnauthenticatedError('You need to log in.', 'missing_token');
      res.locals.user = await auth.authenticateToken(match[1]);
      next();
    } catch (error) {
      next(error);
    }
  };

  const requireVerified: RequestHandler = (_req, res, next) => {
    next(currentUser(res).isEmailVerified ? undefined : new ForbiddenError('Verify your e-mail address first.', 'email_not_verified'));
  };

  const requireRole =
    (minimum: Role): RequestHandler =>
    (_req, res, next) => {
      next(currentUser(res).role >= minimum ? undefined : new ForbiddenError('You are not allowed to do this.', 'forbidden'));
    };

  return {
    public: [],
    user: [authenticate],
    verified: [authenticate, requireVerified],
    staff: [authenticate, requireRole(ROLES.moderator)],
    admin: [authenticate, requireRole(ROLES.admin)],
  };
}
