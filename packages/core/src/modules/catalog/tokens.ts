export const CATALOG = {
  Service: Symbol.for('subshare.catalog.CatalogService'),
  EditorStore: Symbol.for('subshare.catalog.CatalogEditorStore'),
  Media: Symbol.for('subshare.catalog.MediaStore'),
} as const;
