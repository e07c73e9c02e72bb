import { useId } from 'react';

interface LogoProps {
  /** Height in px; the width follows. */
  height?: number;
  /** The mark only, without the word (loading overlay, small screens). */
  markOnly?: boolean;
  title?: string;
}

/** The subshare mark: two profiles sharing one screen. Drawn here (plain SVG), so no request and no flash. */
export function Logo({ height = 32, markOnly = false, title = 'subshare' }: LogoProps) {
  // Unique per instance: a gradient id shared by two logos breaks when one of them is hidden.
  const gradientId = useId();
  const width = markOnly ? height : height * 4.6;
  return (
    <svg viewBox={markOnly ? '0 0 40 40' : '0 0 184 40'} width={`${width}px`} height={`${height}px`} role="img" aria-label={title} style={{ display: 'block' }}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7c3aed" />
          <stop offset="1" stopColor="#db2777" />
        </linearGradient>
      </defs>
      <rect width="40" height="40" rx="10" fill={`url(#${gradientId})`} />
      <circle cx="15" cy="16" r="5" fill="#fff" />
      <circle cx="25" cy="16" r="5" fill="#fff" fillOpacity="0.7" />
      <path d="M7 31c0-5 3.6-8 8-8s8 3 8 8zM17 31c0-5 3.6-8 8-8s8 3 8 8z" fill="#fff" />
      {!markOnly && (
        <text
          x="50"
          y="29"
          // A fixed length keeps the word inside the view box whatever font the system picks.
          textLength="130"
          lengthAdjust="spacingAndGlyphs"
          fill="currentColor"
          // Inline style, not attributes: the CSS reset would override font presentation attributes.
          style={{ font: "700 27px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" }}
        >
          subshare
        </text>
      )}
    </svg>
  );
}
