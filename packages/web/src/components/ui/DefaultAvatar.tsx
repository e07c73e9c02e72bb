interface DefaultAvatarProps {
  size: number;
  title: string;
}

/** The picture shown for users without a photo. */
export function DefaultAvatar({ size, title }: DefaultAvatarProps) {
  return (
    <svg viewBox="0 0 36 36" width={size} height={size} role="img" aria-label={title} style={{ display: 'block' }}>
      <rect width="36" height="36" fill="#e9d8fd" />
      <circle cx="18" cy="14" r="6.5" fill="#805ad5" />
      <path d="M5 34c1-7 6.5-11 13-11s12 4 13 11z" fill="#805ad5" />
    </svg>
  );
}
