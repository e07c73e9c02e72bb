export { createApp, type AppOptions } from './app.js';
export { listen } from './server.js';
export { API_CALLS, type Access, type ApiCall } from './openapi/index.js';
