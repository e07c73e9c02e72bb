/** Black or white, whichever reads better on a brand colour like "#E50914" or "#1db954". */
export function readableTextColor(background: string): '#000000' | '#ffffff' {
  const hex = background.trim().replace(/^#/, '');
  const full = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) return '#ffffff';
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = parseInt(full.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast against black beats contrast against white above this luminance.
  return luminance > 0.179 ? '#000000' : '#ffffff';
}
