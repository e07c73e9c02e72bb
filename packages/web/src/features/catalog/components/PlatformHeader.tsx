import { isPlatformCategory, type PlatformCategory } from '@subshare/core/wire/enums';
import { readableTextColor } from '../../../components/ui/color';
import type { Platform } from '../../../services/api';
import type { DictionaryKey } from '../../language/dictionary';
import { useT } from '../../language/useT';
import styles from '../pages/PlatformPage.module.css';

const CATEGORY_KEYS: Record<PlatformCategory, DictionaryKey> = { 0: 'platform.category.0', 1: 'platform.category.1', 8: 'platform.category.8' };

type HeaderPlatform = Pick<Platform, 'name' | 'logoBase' | 'colorOne' | 'slotsCount' | 'platformType'>;

/**
 * The platform page's header band: the logo and name on the first brand colour, the category
 * and the slots. Its own component so the catalog editor's preview (in the admin chunk) draws
 * exactly what buyers see (there the name is no heading: `titleAs="p"`, the page has its own h1).
 */
export function PlatformHeader({ platform, titleAs: Title = 'h1' }: { platform: HeaderPlatform; titleAs?: 'h1' | 'p' }) {
  const t = useT();
  const headerText = readableTextColor(platform.colorOne);
  const category = isPlatformCategory(platform.platformType) ? CATEGORY_KEYS[platform.platformType] : undefined;
  const slots = platform.slotsCount > 1 ? t('platform.slots', { count: platform.slotsCount }) : platform.slotsCount === 1 ? t('platform.wholeAccount') : null;
  return (
    <header data-testid="platform-header" className={styles.header} style={{ background: platform.colorOne, color: headerText }}>
      <img
        data-testid="platform-logo"
        src={platform.logoBase}
        alt={t('platform.logoAlt', { name: platform.name })}
        // The logos are 240×80: the attributes reserve the space before the image arrives.
        width={240}
        height={80}
        className={styles.logo}
        fetchPriority="high"
      />
      <div className={styles.titles}>
        <Title data-testid="platform-name" className={styles.name}>
          {platform.name}
        </Title>
        <div className={styles.badges}>
          {category && (
            <span data-testid="platform-category" className={styles.category}>
              {t(category)}
            </span>
          )}
          {slots && (
            <p data-testid="platform-slots" className={styles.slots}>
              {slots}
            </p>
          )}
        </div>
      </div>
    </header>
  );
}
