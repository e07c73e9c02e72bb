export { describedCalls, openApiDocument } from './document.js';
export { jsonSchemaConverter, type JsonSchema } from './json-schema.js';
