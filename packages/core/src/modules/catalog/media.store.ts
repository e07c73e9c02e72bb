/**
 * Uploaded logos, in PostgreSQL so that every HTTP process serves the same bytes
 * (`/media/uploads/<sha256>.<ext>`). Keyed by the SHA-256 of the stored bytes: an upload of the
 * same file is the same row, and a URL never changes what it points at (immutable caching).
 */
import { inject, injectable } from 'inversify';
import type { Knex } from 'knex';
import { TOKENS } from '../../shared/tokens.js';
import type { CheckedLogo, LogoType } from './logo-file.js';

@injectable()
export class MediaStore {
  constructor(@inject(TOKENS.Knex) private readonly knex: Knex) {}

  /** Stores the checked file once; true when it was new. */
  async save(logo: CheckedLogo, createdBy: number | undefined, trx?: Knex.Transaction): Promise<boolean> {
    const rows = await (trx ?? this.knex)('media_uploads')
      .insert({ sha256: logo.sha256, content_type: logo.contentType, body: logo.body, size: logo.body.length, created_by: createdBy ?? null })
      .onConflict('sha256')
      .ignore()
      .returning('sha256');
    return rows.length > 0;
  }

  async get(sha256: string): Promise<{ contentType: LogoType; body: Buffer } | undefined> {
    const row = await this.knex('media_uploads').where({ sha256 }).first<{ content_type: LogoType; body: Buffer } | undefined>('content_type', 'body');
    return row ? { contentType: row.content_type, body: row.body } : undefined;
  }
}
