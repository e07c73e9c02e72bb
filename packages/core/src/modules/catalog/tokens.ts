export const CATALOG = {
  Service: Symbol.for('subshare.catalog.CatalogService'),
} as const;
