// The catalog module's public face: other modules, http, worker and cli import only this.
export { CATALOG } from './tokens.js';
export { catalogModule } from './catalog.module.js';
export type { CatalogService } from './catalog.service.js';
export { durationName, CATALOG_VERSION_CHECK_MS } from './catalog.service.js';
export { seedDemoCatalog } from './demo-catalog.js';
export * from './catalog.types.js';
