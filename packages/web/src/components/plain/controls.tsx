/**
 * Buttons and router links of the first screen, in plain CSS (controls.module.css): the shell,
 * home, the platform page and the not-found page render without Chakra. Pages loaded on demand
 * use Chakra's (components/ui/links.tsx) and look the same.
 */
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, CSSProperties } from 'react';
import { Link as RouterLinkBase } from 'react-router-dom';
import styles from './controls.module.css';

export { styles as controlStyles };

export type ButtonSize = 'sm' | 'md' | 'xl';
export type ButtonVariant = 'solid' | 'outline' | 'ghost';

/** Joins class names, skipping empty ones. */
export function cx(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}

interface ButtonLook {
  size?: ButtonSize;
  variant?: ButtonVariant;
  /** Paints the button in a brand colour (text colour `fg`) instead of the purple palette. */
  brand?: { bg: string; fg: string };
}

export function buttonClass({ size = 'md', variant = 'solid', brand }: ButtonLook, className?: string): string {
  return cx(styles.button, styles[size], brand ? styles.brand : styles[variant], className);
}

function brandStyle(brand: ButtonLook['brand'], style: CSSProperties | undefined): CSSProperties | undefined {
  if (!brand) return style;
  return { ['--brand-bg' as string]: brand.bg, ['--brand-fg' as string]: brand.fg, ...style };
}

type PlainButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & ButtonLook & { 'data-testid'?: string };

export function Button({ size, variant, brand, className, style, type = 'button', ...props }: PlainButtonProps) {
  return <button type={type} className={buttonClass({ size, variant, brand }, className)} style={brandStyle(brand, style)} {...props} />;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; 'data-testid'?: string };

/** A link that looks like a button ("purchase now", "HOME"…), navigating with the router. */
export function LinkButton({ size, variant, brand, className, style, to, ...props }: LinkProps & ButtonLook) {
  return <RouterLinkBase to={to} className={buttonClass({ size, variant, brand }, className)} style={brandStyle(brand, style)} {...props} />;
}

/** A text link in the palette's colour (underlined on hover), navigating with the router. */
export function TextLink({ className, to, medium, ...props }: LinkProps & { medium?: boolean }) {
  return <RouterLinkBase to={to} className={cx(styles.link, medium && styles.medium, className)} {...props} />;
}
