import { ContainerModule } from 'inversify';
import { CatalogEditorStore } from './catalog-editor.store.js';
import { CatalogService } from './catalog.service.js';
import { MediaStore } from './media.store.js';
import { PlatformRepository } from './platform.repository.js';

export const catalogModule = new ContainerModule(({ bind }) => {
  bind(PlatformRepository).toSelf().inSingletonScope();
  bind(CatalogService).toSelf().inSingletonScope();
  bind(CatalogEditorStore).toSelf().inSingletonScope();
  bind(MediaStore).toSelf().inSingletonScope();
});
