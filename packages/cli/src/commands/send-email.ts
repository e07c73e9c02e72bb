import { Command } from 'commander';
import { EMAIL_KIND_NAMES, SendEmailFlow } from '@subshare/core';
import { email } from '@subshare/core/wire';
import { runOnce } from '../context.js';
import { positiveInteger } from '../format.js';

const LAST_KIND = Math.max(...Object.keys(EMAIL_KIND_NAMES).map(Number));

const KINDS = Object.entries(EMAIL_KIND_NAMES)
  .map(([kind, name]) => `  ${kind.padStart(2)}  ${name}`)
  .join('\n');

/** The operator's `POST /api/email/sendemail { userId, emailType }`: same flow, audited as "cli". */
export const sendEmailCommand = () =>
  new Command('send-email')
    .description("send one of the e-mail kinds to a user, in the user's language, through the outbox")
    .requiredOption('--user <id>', 'the user id')
    .requiredOption('--type <kind>', 'the e-mail kind: its number or its name (see below)')
    .addHelpText(
      'after',
      `\nE-mail kinds:\n${KINDS}\n\n` +
        "Kinds about an order or a subscription take its data from the user's newest one (active subscription for\n" +
        '1, 3, 6, 7; waiting order for 2; ended subscription for 8; replacement for 9; refunded order for 10).\n' +
        'Kind 5 issues a fresh verification code (never printed). The same user and kind again within a minute\n' +
        'sends nothing new.',
    )
    .action(async (options: { user: string; type: string }) => {
      const userId = positiveInteger('--user', options.user);
      const kind = email.parseEmailKind(options.type);
      if (kind === undefined) {
        throw new Error(`--type must be an e-mail kind, 0 to ${LAST_KIND} or a name such as subscribeActive (got "${options.type}").`);
      }
      // With the job queue: the e-mail's delivery job is sent with it.
      await runOnce({}, async ({ container }) => {
        const sent = await container.get(SendEmailFlow).send({ label: 'cli' }, { userId, emailType: kind }, { ip: 'cli' });
        const what = `e-mail ${sent.id} (${sent.kind} ${sent.kindName}, ${sent.languageId === 2 ? 'Korean' : 'English'}) to ${sent.to}`;
        console.log(sent.repeated ? `Already queued within the last minute: ${what}. Nothing new was sent.` : `Queued ${what}; the worker delivers it.`);
      });
    });
