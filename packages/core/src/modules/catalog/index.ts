// The catalog module's public face: other modules, http, worker and cli import only this.

export { catalogModule } from './catalog.module.js';
export { CatalogService } from './catalog.service.js';
export { durationName, CATALOG_CHANNEL, CATALOG_VERSION_CHECK_MS } from './catalog.service.js';
export { seedDemoCatalog } from './demo-catalog.js';
export * from './catalog.types.js';
export { CatalogEditorStore, type EditablePlatformData, type PlatformSummary, type Localized } from './catalog-editor.store.js';
export { MediaStore } from './media.store.js';
export { checkLogo, sanitizeSvg, sniffLogoType, LOGO_MAX_BYTES, LOGO_TYPES, type CheckedLogo, type LogoType } from './logo-file.js';
export { SHIPPED_ALERT_RULES, DEMO_ALERT_RULES, shippedAlertRules, type ShippedAlertRuleSet } from './shipped-alert-rules.js';
