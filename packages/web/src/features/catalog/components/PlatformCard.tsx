import { pagePath } from '@subshare/core/pages';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { LinkButton, TextLink } from '../../../components/plain/controls';
import { readableTextColor } from '../../../components/ui/color';
import type { Platform } from '../../../services/api';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { formatPrice, minMonthlyPrice } from '../rules';
import { selectCurrencyCode } from '../selectors';
import styles from './PlatformCard.module.css';

/** Home card: logo on the first brand colour, the lowest monthly price, and two ways in. */
export function PlatformCard({ platform }: { platform: Platform }) {
  const t = useT();
  const navigate = useNavigate();
  const currencyCode = useAppSelector(selectCurrencyCode);
  const { culture } = useAppSelector(selectLanguage);
  const price = minMonthlyPrice(platform, currencyCode);
  const to = pagePath.platform(platform.id);

  // The whole card is a click target for mouse users; its links already navigated themselves.
  const openPlatform = (event: MouseEvent) => {
    if (!event.defaultPrevented) navigate(to);
  };

  return (
    <article data-testid="platform-card" data-platform-id={platform.id} onClick={openPlatform} className={styles.card}>
      <div className={styles.band} style={{ background: platform.colorOne }}>
        <img
          data-testid="platform-card-logo"
          src={platform.logoBase}
          alt={platform.name}
          // The logos are 240×80: the attributes reserve their space (no layout shift).
          width={240}
          height={80}
          className={styles.logo}
          loading="lazy"
          decoding="async"
        />
      </div>
      <div className={styles.body}>
        <h3 data-testid="platform-card-name" className={styles.name}>
          {platform.name}
        </h3>
        {price !== null && (
          <p data-testid="platform-card-price" className={styles.price}>
            <span className={styles.amount}>{formatPrice(price, currencyCode, culture)}</span>
            {t('card.perMonth')}
          </p>
        )}
        <div className={styles.spacer} />
        <div className={styles.actions}>
          <TextLink data-testid="platform-card-details" to={to} medium>
            {t('card.seeDetails')}
          </TextLink>
          <LinkButton
            data-testid="platform-card-purchase"
            to={to}
            brand={{ bg: platform.colorTwo, fg: readableTextColor(platform.colorTwo) }}
            className={styles.purchase}
          >
            {t('card.purchaseNow')}
          </LinkButton>
        </div>
      </div>
    </article>
  );
}
