import type { ReactNode } from 'react';

interface LineIconProps {
  /** Width and height (a number of pixels, or a CSS length). */
  size: number | string;
  strokeWidth?: number;
  className?: string;
  /** The paths, drawn on a 24 × 24 grid. */
  children: ReactNode;
}

/**
 * A decorative line icon (a tick, a chevron, an eye) on a 24 × 24 grid, stroked in the text's
 * colour with round ends, hidden from screen readers: the control it sits in carries the words.
 * Plain SVG, no Chakra: the first screen draws it too.
 */
export function LineIcon({ size, strokeWidth = 2, className, children }: LineIconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      className={className}
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}
