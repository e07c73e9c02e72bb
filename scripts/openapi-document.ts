/**
 * Prints the OpenAPI document `/api/openapi.json` serves, derived from the declarations alone
 * (no database, no server): `node --conditions=source --import tsx scripts/openapi-document.ts [publicUrl] > openapi.json`.
 * Used by scripts/lint-openapi.sh and the client-generation test.
 */
import { DECLARATIONS } from '@subshare/core/wire';
import { openApiDocument } from '@subshare/http';

process.stdout.write(`${JSON.stringify(openApiDocument(process.argv[2] ?? 'http://localhost:8080', DECLARATIONS), null, 2)}\n`);
