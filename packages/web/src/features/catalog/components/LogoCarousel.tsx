import { pagePath } from '@subshare/core/pages';
import { useEffect } from 'react';
import { Link as RouterLinkBase } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { CAROUSEL_FIXED_SLOTS } from '../rules';
import { selectCarouselItems } from '../selectors';
import { carouselStarted, carouselStopped } from '../slice';
import styles from './LogoCarousel.module.css';

/**
 * Shows the newest four logos of the rotating list. On each rotation the track is re-keyed
 * and slides left by one slot: the oldest logo leaves, the new one enters on the right.
 */
export function LogoCarousel() {
  const t = useT();
  const dispatch = useAppDispatch();
  const items = useAppSelector(selectCarouselItems);

  useEffect(() => {
    dispatch(carouselStarted());
    return () => {
      dispatch(carouselStopped());
    };
  }, [dispatch]);

  if (items.length === 0) return null;

  // The visible slots plus the logo sliding out on the left.
  const track = items.slice(-(CAROUSEL_FIXED_SLOTS + 1));
  const sliding = track.length > CAROUSEL_FIXED_SLOTS;
  const slotShare = 100 / track.length;
  const newestKey = track[track.length - 1]!.key;

  return (
    <section data-testid="logo-carousel" aria-label={t('home.carousel')} className={styles.carousel}>
      <div
        key={newestKey}
        className={sliding ? `${styles.track} ${styles.sliding}` : styles.track}
        style={{ width: `${(track.length / CAROUSEL_FIXED_SLOTS) * 100}%`, transform: sliding ? `translateX(-${slotShare}%)` : undefined }}
      >
        {track.map((item, index) => {
          const leaving = sliding && index === 0;
          return (
            <div key={item.key} className={styles.slot}>
              <RouterLinkBase
                to={pagePath.platform(item.platformId)}
                data-testid={leaving ? undefined : 'carousel-logo'}
                data-platform-id={item.platformId}
                aria-hidden={leaving || undefined}
                tabIndex={leaving ? -1 : undefined}
                title={item.name}
              >
                <img src={item.logo} alt={item.name} width={120} height={120} className={styles.logo} draggable={false} />
              </RouterLinkBase>
            </div>
          );
        })}
      </div>
    </section>
  );
}
