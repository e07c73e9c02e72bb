export { createApp, type AppOptions } from './app.js';
export { listen } from './server.js';
