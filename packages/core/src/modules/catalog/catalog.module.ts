import { ContainerModule } from 'inversify';
import { CatalogEditorStore } from './catalog-editor.store.js';
import { CatalogService } from './catalog.service.js';
import { MediaStore } from './media.store.js';
import { PlatformRepository } from './platform.repository.js';
import { CATALOG } from './tokens.js';

export const catalogModule = new ContainerModule(({ bind }) => {
  bind(PlatformRepository).toSelf().inSingletonScope();
  bind(CatalogService).toSelf().inSingletonScope();
  bind(CATALOG.Service).toService(CatalogService);
  bind(CatalogEditorStore).toSelf().inSingletonScope();
  bind(CATALOG.EditorStore).toService(CatalogEditorStore);
  bind(MediaStore).toSelf().inSingletonScope();
  bind(CATALOG.Media).toService(MediaStore);
});
