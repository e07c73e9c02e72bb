/**
 * A menu that opens without script: a native `<details>` whose `<summary>` is drawn as a button
 * and whose panel floats below it. The browser opens and closes it, before and without any
 * script; React never sets `open` (it is not a prop here), so hydration keeps whatever the
 * visitor did before it. Once scripted, a click outside, Escape or a route change closes it too.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { buttonClass, cx, type ButtonSize, type ButtonVariant } from './controls';
import styles from './Disclosure.module.css';

interface DisclosureProps {
  /** What the summary shows. */
  summary: ReactNode;
  summaryLabel?: string;
  size?: ButtonSize;
  variant?: ButtonVariant;
  /** The panel's side: 'end' aligns it with the summary's end (the bar's right edge), 'bar' spans the bar. */
  align?: 'end' | 'bar';
  className?: string;
  summaryClassName?: string;
  testId?: string;
  summaryTestId?: string;
  panelTestId?: string;
  panelId?: string;
  children: ReactNode;
}

export function Disclosure({
  summary,
  summaryLabel,
  size = 'sm',
  variant = 'outline',
  align = 'end',
  className,
  summaryClassName,
  testId,
  summaryTestId,
  panelTestId,
  panelId,
  children,
}: DisclosureProps) {
  const details = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();

  // Following a link closes it; the first run is hydration, which keeps what the visitor opened.
  const shownPath = useRef(pathname);
  useEffect(() => {
    const element = details.current;
    if (element && shownPath.current !== pathname) element.open = false;
    shownPath.current = pathname;
  }, [pathname]);

  useEffect(() => {
    const element = details.current;
    if (!element) return;
    const close = () => {
      element.open = false;
    };
    const onPointer = (event: PointerEvent) => {
      if (element.open && event.target instanceof Node && !element.contains(event.target)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && element.open) {
        close();
        element.querySelector('summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, []);

  return (
    <details ref={details} data-testid={testId} className={cx(styles.details, align === 'bar' && styles.bar, className)}>
      <summary data-testid={summaryTestId} aria-label={summaryLabel} className={buttonClass({ size, variant }, cx(styles.summary, summaryClassName))}>
        {summary}
      </summary>
      <div id={panelId} data-testid={panelTestId} className={styles.panel}>
        {children}
      </div>
    </details>
  );
}
