import styles from './HeroArt.module.css';

/**
 * The home hero: one screen shared by four profiles, with video, music and chat around it.
 * Our own drawing (no brand imagery), inline so it paints with the first render.
 */
export function HeroArt() {
  return (
    <svg viewBox="0 0 480 340" className={styles.art} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="hero-bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ede9fe" />
          <stop offset="1" stopColor="#fce7f3" />
        </linearGradient>
        <linearGradient id="hero-screen" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#312e81" />
          <stop offset="1" stopColor="#4c1d95" />
        </linearGradient>
      </defs>
      <path d="M64 60C130 -8 330 -14 410 48s86 190 10 244-250 60-330 10S-2 128 64 60z" fill="url(#hero-bg)" />
      {/* The shared screen */}
      <rect x="110" y="70" width="260" height="170" rx="16" fill="url(#hero-screen)" />
      <rect x="214" y="240" width="52" height="22" fill="#4c1d95" />
      <rect x="180" y="260" width="120" height="10" rx="5" fill="#312e81" />
      {/* Four profiles, four slots */}
      {[
        { x: 165, y: 125, color: '#f472b6' },
        { x: 215, y: 125, color: '#60a5fa' },
        { x: 265, y: 125, color: '#34d399' },
        { x: 315, y: 125, color: '#fbbf24' },
      ].map((profile) => (
        <g key={profile.x}>
          <rect x={profile.x - 20} y={profile.y - 22} width="40" height="44" rx="8" fill={profile.color} />
          <circle cx={profile.x} cy={profile.y - 6} r="8" fill="#fff" />
          <path d={`M${profile.x - 13} ${profile.y + 18}c0-9 6-13 13-13s13 4 13 13z`} fill="#fff" />
        </g>
      ))}
      <rect x="145" y="180" width="190" height="8" rx="4" fill="#6d28d9" />
      <rect x="145" y="180" width="120" height="8" rx="4" fill="#c4b5fd" />
      <rect x="145" y="198" width="90" height="8" rx="4" fill="#6d28d9" />
      {/* Video */}
      <circle cx="78" cy="128" r="30" fill="#fff" stroke="#e9d5ff" strokeWidth="2" />
      <path d="M70 114l24 14-24 14z" fill="#7c3aed" />
      {/* Music */}
      <circle cx="408" cy="108" r="28" fill="#fff" stroke="#fbcfe8" strokeWidth="2" />
      <path d="M402 94v24a7 7 0 1 1-4-6.3V98l18-4v18a7 7 0 1 1-4-6.3V96z" fill="#db2777" />
      {/* AI chat */}
      <rect x="380" y="190" width="74" height="48" rx="14" fill="#fff" stroke="#bfdbfe" strokeWidth="2" />
      <path d="M396 238l-6 14 18-14z" fill="#fff" />
      <circle cx="403" cy="214" r="4.5" fill="#2563eb" />
      <circle cx="417" cy="214" r="4.5" fill="#2563eb" fillOpacity=".7" />
      <circle cx="431" cy="214" r="4.5" fill="#2563eb" fillOpacity=".4" />
      {/* Price tag */}
      <g transform="rotate(-12 70 250)">
        <rect x="34" y="228" width="82" height="40" rx="10" fill="#7c3aed" />
        <circle cx="48" cy="248" r="5" fill="#ede9fe" />
        <path d="M62 248h42" stroke="#ede9fe" strokeWidth="6" strokeLinecap="round" />
      </g>
    </svg>
  );
}
