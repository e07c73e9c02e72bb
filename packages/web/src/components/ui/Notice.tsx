import type { ssr } from '@subshare/core/wire';
import { Button, TextLink } from '../plain/controls';
import { Page } from './Page';
import './notice.css';

interface NoticeProps {
  notice: ssr.Notice;
}

/**
 * A page whose words the server wrote (wire/ssr.ts `Notice`): title, message, facts, the note
 * above a button that POSTs a form, and links onwards. Plain HTML and CSS: it works without
 * script (the renewal links' pages carry none; the pages that need script show it in <noscript>).
 */
export function Notice({ notice }: NoticeProps) {
  const id = (part: string) => `${notice.testId}-${part}`;
  return (
    <Page testId={notice.testId} title={notice.title} titleTestId={id('title')} noindex>
      <p data-testid={id('message')} className="ss-notice-message">
        {notice.message}
      </p>
      {notice.facts && notice.facts.length > 0 && (
        <dl data-testid={id('facts')} className="ss-notice-facts">
          {notice.facts.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd data-testid={id('fact')}>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {notice.note && (
        <p data-testid={id('note')} className="ss-notice-note">
          {notice.note}
        </p>
      )}
      {notice.form && (
        <form method="post" action={notice.form.action} className="ss-notice-form">
          {notice.form.fields.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <Button type="submit" size="xl" className="ss-notice-confirm" data-testid={id('confirm')}>
            {notice.form.label}
          </Button>
        </form>
      )}
      {notice.links && notice.links.length > 0 && (
        <ul data-testid={id('links')} className="ss-notice-links">
          {notice.links.map((link) => (
            <li key={link.href}>
              <TextLink to={link.href} medium>
                {link.label}
              </TextLink>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
