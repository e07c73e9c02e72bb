import { pagePath } from '@subshare/core/pages';
import { Link as RouterLinkBase } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Button, LinkButton, TextLink } from '../../../components/plain/controls';
import { Disclosure } from '../../../components/plain/Disclosure';
import { Logo } from '../../../components/ui/Logo';
import { ProfilePicture } from '../../auth/components/ProfilePicture';
import { CurrencySelect } from '../../catalog/components/CurrencySelect';
import { selectUser } from '../../auth/selectors';
import { logoutRequested } from '../../auth/slice';
import { LanguageToggle } from '../../language/components/LanguageToggle';
import { useT } from '../../language/useT';
import styles from './NavBar.module.css';

/** The links that depend on who is logged in; laid out in a row (desktop) or a column (menu). */
function AccountLinks({ direction }: { direction: 'row' | 'column' }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);

  if (!user) {
    return (
      <LinkButton data-testid="nav-login" to={pagePath.login()} size="sm">
        {t('nav.login')}
      </LinkButton>
    );
  }
  return (
    <div className={direction === 'row' ? styles.account : styles.accountColumn}>
      <div className={styles.profile}>
        <ProfilePicture photoUrl={user.photoUrl} alt={t('nav.profilePicture')} />
        <TextLink data-testid="nav-my-subscriptions" to={pagePath.user(user.id)} medium>
          {t('nav.mySubscriptions')}
        </TextLink>
      </div>
      <Button data-testid="nav-logout" size="sm" variant="outline" onClick={() => dispatch(logoutRequested())}>
        {t('nav.logout')}
      </Button>
    </div>
  );
}

function MenuIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <path d="M4 7h16M4 12h16M4 17h16" className={styles.menuClosedIcon} />
      <path d="M6 6l12 12M18 6L6 18" className={styles.menuOpenIcon} />
    </svg>
  );
}

/**
 * One bar for every width: phones hide the wide-only links and show the menu button by CSS
 * (NavBar.module.css), not by measuring the window, so the markup the server renders is the
 * markup the phone hydrates (no switch of layout, no shift, after the scripts have run). The phone
 * menu is a <details> (components/plain/Disclosure.tsx): it opens before and without script, and
 * repeats the how-it-works and account links below the bar.
 */
export function NavBar() {
  const t = useT();

  return (
    <header className={styles.header}>
      <nav aria-label={t('nav.main')} className={styles.bar}>
        <RouterLinkBase to="/" data-testid="nav-home" aria-label={t('nav.home')} className={styles.home}>
          <Logo height={32} />
        </RouterLinkBase>
        <div className={styles.spacer} />
        <div className={styles.row}>
          <TextLink data-testid="nav-how-it-works" to={pagePath.howItWorks()} className={styles.wide}>
            {t('nav.howItWorks')}
          </TextLink>
          <CurrencySelect />
          <LanguageToggle />
          <div className={styles.wide}>
            <AccountLinks direction="row" />
          </div>
          <Disclosure
            testId="nav-menu"
            summaryTestId="nav-menu-toggle"
            panelTestId="nav-mobile-menu"
            panelId="mobile-menu"
            summary={<MenuIcon />}
            summaryLabel={t('nav.menu')}
            variant="ghost"
            align="bar"
            className={styles.narrow}
          >
            <div className={styles.menu}>
              <TextLink data-testid="nav-how-it-works" to={pagePath.howItWorks()}>
                {t('nav.howItWorks')}
              </TextLink>
              <AccountLinks direction="column" />
            </div>
          </Disclosure>
        </div>
      </nav>
    </header>
  );
}
