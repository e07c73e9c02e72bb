import { ContainerModule } from 'inversify';
import { CatalogService } from './catalog.service.js';
import { PlatformRepository } from './platform.repository.js';
import { CATALOG } from './tokens.js';

export const catalogModule = new ContainerModule(({ bind }) => {
  bind(PlatformRepository).toSelf().inSingletonScope();
  bind(CatalogService).toSelf().inSingletonScope();
  bind(CATALOG.Service).toService(CatalogService);
});
