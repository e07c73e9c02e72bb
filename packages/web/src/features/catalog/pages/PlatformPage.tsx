import { pagePath } from '@subshare/core/pages';
import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { CHECKOUT_PATH, CHOICE_FIELDS, PROMO_CODE_PARAM, readPromoCode } from '@subshare/core/storefront';
import { Button, buttonClass, controlStyles } from '../../../components/plain/controls';
import { readableTextColor } from '../../../components/ui/color';
import { FaqList } from '../../../components/ui/FaqList';
import { usePageMeta } from '../../../components/ui/usePageMeta';
import type { Platform } from '../../../services/api';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import NotFoundPage from '../../shell/pages/NotFoundPage';
import { OptionGroup } from '../components/OptionGroup';
import { PlatformHeader } from '../components/PlatformHeader';
import { parsePlatformId } from '../platformId';
import { discountPercent, formatPrice, minMonthlyPrice, monthlyPrice, regularPrice, salePrice } from '../rules';
import { selectCurrencyCode, selectPlatformPage, selectSelection } from '../selectors';
import { paymentRequested, platformPageClosed, platformPageOpened, platformRefreshRequested, selectionChanged } from '../slice';
import styles from './PlatformPage.module.css';

/**
 * /platform/{id} (spec sections 2 and 4): on load the platform is requested in the current
 * language, its id stored and the currency taken from the answer; the first enabled type and
 * duration are preselected. Unknown or malformed ids get the not-found page. Plain CSS (no
 * Chakra): it is one of the storefront's first screens.
 */
export default function PlatformPage() {
  const dispatch = useAppDispatch();
  const id = parsePlatformId(useParams().id);
  const page = useAppSelector(selectPlatformPage);

  useEffect(() => {
    dispatch(platformPageOpened(id));
    return () => {
      dispatch(platformPageClosed());
    };
  }, [dispatch, id]);

  if (id === null || (page.id === id && page.status === 'notFound')) return <NotFoundPage kind="platform" />;
  // Until the page's own state arrives (first render), nothing stale from another platform shows.
  const platform = page.id === id ? page.platform : null;
  if (!platform) return <PlatformPlaceholder failed={page.id === id && page.status === 'failed'} />;
  return <PlatformDetails platform={platform} status={page.status === 'loaded' || page.status === 'failed' ? page.status : 'loading'} />;
}

function RetryNotice() {
  const t = useT();
  const dispatch = useAppDispatch();
  return (
    <div data-testid="platform-failed" role="alert" className={styles.retry}>
      <p>{t('platform.failed')}</p>
      <Button data-testid="platform-retry" size="sm" onClick={() => dispatch(platformRefreshRequested())}>
        {t('platform.retry')}
      </Button>
    </div>
  );
}

function PlatformPlaceholder({ failed }: { failed: boolean }) {
  const t = useT();
  const dispatch = useAppDispatch();
  usePageMeta({ title: null });
  return (
    <div data-testid="page-platform" data-status={failed ? 'failed' : 'loading'} className={styles.placeholderPage}>
      {/* The header band's size, so the page does not jump when the platform arrives. */}
      <div className={styles.placeholderBand} />
      {failed ? (
        <div data-testid="platform-failed" role="alert" className={styles.failed}>
          <h1 className={styles.failedTitle}>{t('platform.failed')}</h1>
          <Button data-testid="platform-retry" onClick={() => dispatch(platformRefreshRequested())}>
            {t('platform.retry')}
          </Button>
        </div>
      ) : (
        <p className={styles.loading}>{t('platform.loading')}</p>
      )}
    </div>
  );
}

function PlatformDetails({ platform, status }: { platform: Platform; status: 'loading' | 'loaded' | 'failed' }) {
  const t = useT();
  const currencyCode = useAppSelector(selectCurrencyCode);
  const { culture } = useAppSelector(selectLanguage);
  const perMonthOf = (amount: number) => `${formatPrice(amount, currencyCode, culture)}${t('card.perMonth')}`;
  // The lowest monthly price leads the description (search results, link previews), as on the home card.
  const lowest = minMonthlyPrice(platform, currencyCode);
  const metaDescription = lowest === null ? platform.description : `${platform.name}: ${perMonthOf(lowest)}. ${platform.description}`;
  usePageMeta({ title: t('meta.platformTitle', { name: platform.name }), description: metaDescription, robots: 'index' });

  return (
    <div data-testid="page-platform" data-status={status} data-platform-id={platform.id} data-currency={currencyCode} className={styles.page}>
      {/* The home list's copy is shown, but the fresh answer failed: the prices may be stale. */}
      {status === 'failed' && <RetryNotice />}
      <PlatformHeader platform={platform} />

      <div className={styles.layout}>
        <p data-testid="platform-description" className={styles.description}>
          {platform.description}
        </p>

        <Purchase platform={platform} perMonthOf={perMonthOf} />

        <HowItWorks platform={platform} />

        {/* Spec: the FAQ section only when the platform has entries. */}
        {platform.faq.length > 0 && (
          <section aria-labelledby="platform-faq-heading" data-testid="platform-faq" className={styles.faq}>
            <h2 id="platform-faq-heading" className={styles.sectionTitle}>
              {t('platform.faq')}
            </h2>
            <FaqList key={platform.id} items={platform.faq} headingLevel={3} />
          </section>
        )}
      </div>
    </div>
  );
}

/**
 * The purchase box: type and duration (a real form, so it works without script), the chosen
 * option's price, and "Go to payment".
 */
function Purchase({ platform, perMonthOf }: { platform: Platform; perMonthOf: (amount: number) => string }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const currencyCode = useAppSelector(selectCurrencyCode);
  const selection = useAppSelector(selectSelection);
  // A promotion code the link carried (`?code=`): the form passes it on to the order.
  const promoCode = readPromoCode(useSearchParams()[0]);
  const types = platform.type.filter((type) => type.isEnable);
  const durations = platform.duration.filter((duration) => duration.isEnable);
  const { typeId, durationId } = selection;
  const sale = salePrice(platform, durationId, typeId, currencyCode);
  const regular = regularPrice(platform, durationId, typeId, currencyCode);
  const monthly = monthlyPrice(platform, durationId, typeId, currencyCode);

  return (
    <div className={styles.purchaseArea}>
      <section
        aria-labelledby="platform-options-heading"
        data-testid="platform-purchase"
        className={styles.purchase}
        style={{ borderTopColor: platform.colorTwo }}
      >
        <h2 id="platform-options-heading" className={styles.purchaseTitle}>
          {t('platform.options')}
        </h2>
        {/* The choice is a real form (plain HTML first): without script, "Go to payment" asks the
            server (CHECKOUT_PATH), which sends the visitor on to log in or to pay, and the
            <noscript> button reloads this page with that choice's prices. Scripted, prices
            follow each tap and the app goes to payment itself (catalog saga). */}
        <form
          method="get"
          action={CHECKOUT_PATH}
          data-testid="platform-choice-form"
          className={styles.stack}
          onSubmit={(event) => {
            event.preventDefault();
            dispatch(paymentRequested());
          }}
        >
          <input type="hidden" name={CHOICE_FIELDS.platform} value={platform.id} />
          {promoCode && <input type="hidden" name={PROMO_CODE_PARAM} value={promoCode} />}
          {types.length > 0 && (
            <OptionGroup
              kind="type"
              legend={t('platform.type')}
              options={types.map((type) => ({ id: type.id, name: type.name }))}
              selectedId={typeId}
              accent={platform.colorTwo}
              onSelect={(id) => dispatch(selectionChanged({ typeId: id }))}
            />
          )}
          {durations.length > 0 && (
            <OptionGroup
              kind="duration"
              legend={t('platform.duration')}
              options={durations.map((duration) => {
                const amount = monthlyPrice(platform, duration.id, typeId, currencyCode);
                return { id: duration.id, name: duration.name, detail: amount === null ? undefined : perMonthOf(amount) };
              })}
              selectedId={durationId}
              accent={platform.colorTwo}
              onSelect={(id) => dispatch(selectionChanged({ durationId: id }))}
            />
          )}

          <noscript>
            <button
              type="submit"
              formAction={pagePath.platform(platform.id)}
              data-testid="platform-show-price"
              className={buttonClass({ size: 'md', variant: 'outline' })}
            >
              {t('platform.showPrice')}
            </button>
          </noscript>

          <PriceLines sale={sale} regular={regular} monthly={monthly} perMonthOf={perMonthOf} />

          <GoToPayment platform={platform} disabled={sale === null || types.length === 0 || durations.length === 0} />
        </form>
      </section>
    </div>
  );
}

/** "Go to payment" in the platform's colour (off when off sale or nothing to buy), and what follows a payment. */
function GoToPayment({ platform, disabled }: { platform: Platform; disabled: boolean }) {
  const t = useT();
  const buttonText = readableTextColor(platform.colorTwo);
  return (
    <>
      {platform.offSale && (
        // Issue 33: every account of the platform is broken; the server refuses the order too.
        <p data-testid="platform-off-sale" role="status" className={styles.invitation}>
          {t('platform.offSale')}
        </p>
      )}
      <Button
        type="submit"
        data-testid="platform-go-to-payment"
        size="xl"
        brand={{ bg: platform.colorTwo, fg: buttonText }}
        className={styles.pay}
        disabled={platform.offSale || disabled}
      >
        {t('platform.goToPayment')}
      </Button>
      <p data-testid="platform-activation" className={styles.note}>
        {t('platform.activation')}
      </p>
      {platform.haveInvitation && (
        <p data-testid="platform-invitation-note" className={styles.invitation}>
          {t('platform.invitation')}
        </p>
      )}
    </>
  );
}

/** The chosen option's price: the sale price, the regular one struck through with the saving, the monthly figure. */
function PriceLines({
  sale,
  regular,
  monthly,
  perMonthOf,
}: {
  sale: number | null;
  regular: number | null;
  monthly: number | null;
  perMonthOf: (amount: number) => string;
}) {
  const t = useT();
  const currencyCode = useAppSelector(selectCurrencyCode);
  const { culture } = useAppSelector(selectLanguage);
  const discount = discountPercent(regular, sale);
  return (
    <div data-testid="platform-price" aria-live="polite" aria-atomic="true" className={styles.price}>
      {sale === null ? (
        <p data-testid="platform-no-price" className={styles.muted}>
          {t('platform.noPrice')}
        </p>
      ) : (
        <div className={styles.priceLines}>
          <p className={styles.label}>{t('platform.total')}</p>
          <div className={styles.amounts}>
            <p data-testid="platform-sale-price" className={styles.sale}>
              {formatPrice(sale, currencyCode, culture)}
            </p>
            {discount > 0 && regular !== null && (
              <>
                <p className={styles.muted}>
                  <span className={controlStyles.srOnly}>{t('platform.regularPrice')}: </span>
                  <del data-testid="platform-regular-price">{formatPrice(regular, currencyCode, culture)}</del>
                </p>
                <span data-testid="platform-discount" className={styles.discount}>
                  {t('platform.save', { percent: discount })}
                </span>
              </>
            )}
          </div>
          {monthly !== null && (
            <p data-testid="platform-monthly-price" className={styles.monthly}>
              {perMonthOf(monthly)}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** The platform's how-it-works points, numbered on its colour; nothing when it has none. */
function HowItWorks({ platform }: { platform: Platform }) {
  const t = useT();
  const headerText = readableTextColor(platform.colorOne);
  if (platform.howItWorks.length === 0) return null;
  return (
    <section aria-labelledby="platform-how-heading" data-testid="platform-how-it-works" className={styles.how}>
      <h2 id="platform-how-heading" className={styles.sectionTitle}>
        {t('platform.howItWorks')}
      </h2>
      <ol className={styles.steps}>
        {platform.howItWorks.map((point, index) => (
          <li key={index} data-testid="platform-how-it-works-item" className={styles.step}>
            <div className={styles.stepNumber} style={{ background: platform.colorOne, color: headerText }} aria-hidden="true">
              {index + 1}
            </div>
            <p className={styles.stepText}>{point}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
