import { PAGES, type PageDeclaration } from '@subshare/core/pages';
import { useAppSelector } from '../../../app/hooks';
import { TextLink } from '../../../components/plain/controls';
import { selectBusiness } from '../../business/selectors';
import { POLICY_PAGES } from '../../content/policies';
import { useT } from '../../language/useT';
import type { DictionaryKey } from '../../language/dictionary';
import styles from './Footer.module.css';

function BusinessInfo() {
  const t = useT();
  const business = useAppSelector(selectBusiness);
  if (!business) return null;

  const rows: Array<[DictionaryKey, string, string]> = [
    ['footer.businessName', business.name, 'name'],
    ['footer.registrationNumber', business.registrationNumber, 'registration-number'],
    ['footer.mailOrderNumber', business.mailOrderNumber, 'mail-order-number'],
    ['footer.address', business.address, 'address'],
    ['footer.representative', business.representative, 'representative'],
    ['footer.phone', business.supportPhone, 'phone'],
    ['footer.email', business.supportEmail, 'email'],
  ];
  return (
    // A group, not a region landmark: the business-details page has a region of the same name.
    <div role="group" data-testid="footer-business" aria-label={t('footer.business')} className={styles.small}>
      <p data-testid="footer-company-type">{t('footer.companyType')}</p>
      {rows
        .filter(([, value]) => Boolean(value))
        .map(([label, value, testId]) => (
          <p key={label} data-testid={`footer-business-${testId}`}>
            {t(label)}: {value}
          </p>
        ))}
    </div>
  );
}

export function Footer() {
  const t = useT();
  const business = useAppSelector(selectBusiness);
  const links: Array<{ page: PageDeclaration; label: DictionaryKey }> = [
    { page: PAGES.support, label: 'page.support' },
    { page: PAGES.faq, label: 'page.faq' },
    { page: PAGES.howItWorks, label: 'page.howitworks' },
    ...POLICY_PAGES.map((policy) => ({ page: policy.page, label: policy.title })),
  ];

  return (
    <footer data-testid="footer" className={styles.footer}>
      <div className={styles.inner}>
        <nav aria-label={t('footer.navigation')} className={styles.links}>
          {links.map((link) => (
            <TextLink key={link.page.path} data-testid={`footer-link${link.page.path.replace(/\//g, '-')}`} to={link.page.to()}>
              {t(link.label)}
            </TextLink>
          ))}
        </nav>
        <BusinessInfo />
        <p className={styles.small}>{t('footer.copyright', { year: new Date().getFullYear(), name: business?.name || t('app.name') })}</p>
      </div>
    </footer>
  );
}
