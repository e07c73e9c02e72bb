export { createApp, createServerHandler, type AppOptions, type ServerHandler } from './app.js';
export { listen } from './server.js';
export { describedCalls, openApiDocument } from './openapi/index.js';
export { routeTable } from './routes/table.js';
export type { Access, Call } from './routes/call.js';
