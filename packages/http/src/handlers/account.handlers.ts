import type { Request, Response } from 'express';
import type { Container } from 'inversify';
import * as yup from 'yup';
import { ACCOUNTS, ValidationError, type AccountsService } from '@subshare/core';
import { auditActor } from '../middleware/auth.js';
import { id, parse } from '../schemas/parse.js';
import { serializeAccount, serializeMailbox } from '../serializers/account.serializer.js';

// The spec spells the query parameter `plaformId`; `platformId` is accepted as well.
const platformQuery = yup.object({ plaformId: id('plaformId'), platformId: id('platformId') });

function platformIdOf(req: Request): number | undefined {
  const query = parse(platformQuery, req.query);
  if (query.plaformId !== undefined && query.platformId !== undefined && query.plaformId !== query.platformId) {
    throw new ValidationError('plaformId and platformId disagree.', { plaformId: 'differs from platformId' });
  }
  return query.plaformId ?? query.platformId;
}

export function accountHandlers(container: Container) {
  const accounts = container.get<AccountsService>(ACCOUNTS.Service);
  return {
    /** POST /api/subscribe/insert { email, password, platformId, slotsCount, femail } (admin): the new platform account */
    insert: async (req: Request, res: Response) => serializeAccount(await accounts.createAccount(auditActor(req, res), req.body)),
    /** GET /api/subscribe/createbemail[?plaformId] (admin): a new mailbox with its password, shown once */
    createMailbox: async (req: Request, res: Response) =>
      serializeMailbox(await accounts.createMailbox(auditActor(req, res), { platformId: platformIdOf(req) })),
    /** GET /api/subscribe/getbemails?plaformId (staff): the platform's and the unassigned mailboxes, passwords included (audited) */
    listMailboxes: async (req: Request, res: Response) => {
      const platformId = platformIdOf(req);
      if (platformId === undefined) throw new ValidationError('Some fields are missing or invalid.', { plaformId: 'plaformId is required' });
      return (await accounts.listMailboxes(auditActor(req, res), { platformId })).map(serializeMailbox);
    },
  };
}
