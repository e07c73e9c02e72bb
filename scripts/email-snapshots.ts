/**
 * Writes the reviewed e-mail snapshots (test/snapshots/emails/) from the current templates:
 * `npm run snapshots:emails`. Run it after changing an e-mail, then read `git diff` of that folder:
 * it shows every e-mail the change lands in. Files of e-mails that no longer exist are removed.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { SNAPSHOT_DIR, emailSnapshots } from './email-snapshots-render.js';

const files = emailSnapshots();
mkdirSync(SNAPSHOT_DIR, { recursive: true });
for (const stale of readdirSync(SNAPSHOT_DIR).filter((name) => !files.has(name))) rmSync(`${SNAPSHOT_DIR}${stale}`);
for (const [name, content] of files) writeFileSync(`${SNAPSHOT_DIR}${name}`, content);
console.log(`${files.size} e-mail snapshots written to test/snapshots/emails/`);
