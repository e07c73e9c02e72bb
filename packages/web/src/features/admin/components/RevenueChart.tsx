import { Box, chakra } from '@chakra-ui/react';
import { formatEur, formatMediumDate } from '../format';
import { ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

const HEIGHT = 120;
const BAR = 14;
const GAP = 4;

/**
 * Revenue per day as a plain SVG bar chart (no chart library): one bar a day, its amount in a
 * tooltip (<title>) and the whole chart summed up for screen readers. Revenue is net of refunds,
 * so a day whose refunds exceed its payments has a red bar below the zero line.
 */
export function RevenueChart({ days, culture }: { days: Array<{ day: string; totalEur: number }>; culture: string }) {
  const t = useT(ADMIN_TEXTS);
  const sorted = [...days].sort((a, b) => a.day.localeCompare(b.day));
  const max = Math.max(0, ...sorted.map((entry) => entry.totalEur));
  const min = Math.min(0, ...sorted.map((entry) => entry.totalEur));
  const span = max - min;
  const usable = HEIGHT - 8;
  // The zero line: at the bottom while no day is negative, lower days below it otherwise.
  const zeroY = span > 0 ? 4 + (max / span) * usable : HEIGHT - 0.5;
  const width = Math.max(sorted.length, 1) * (BAR + GAP);
  const label =
    sorted.length === 0
      ? t('admin.revenueTotal', { total: formatEur(0, culture) })
      : t('admin.revenueChart', {
          from: formatMediumDate(sorted[0]!.day, culture),
          to: formatMediumDate(sorted.at(-1)!.day, culture),
          max: formatEur(max, culture),
        });
  return (
    <Box overflowX="auto">
      <chakra.svg
        data-testid="admin-revenue-chart"
        data-bars={sorted.length}
        role="img"
        aria-label={label}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        w="full"
        // Readable bars from a tablet up; on a phone the DASHBOARD_DAYS fit the screen, narrower.
        minW={{ base: '0', md: `${Math.min(width, 480)}px` }}
        h={`${HEIGHT}px`}
        display="block"
      >
        <line x1="0" y1={zeroY} x2={width} y2={zeroY} stroke="currentColor" strokeOpacity="0.2" />
        {sorted.map((entry, index) => {
          const negative = entry.totalEur < 0;
          const height = span > 0 ? Math.max((Math.abs(entry.totalEur) / span) * usable, entry.totalEur !== 0 ? 2 : 0) : 0;
          return (
            <chakra.rect
              key={entry.day}
              data-testid="admin-revenue-bar"
              data-day={entry.day}
              data-total={entry.totalEur}
              x={index * (BAR + GAP) + GAP / 2}
              y={negative ? zeroY : zeroY - height}
              width={BAR}
              height={height}
              rx="2"
              fill={negative ? 'red.500' : 'purple.500'}
            >
              <title>{`${formatMediumDate(entry.day, culture)}: ${formatEur(entry.totalEur, culture)}`}</title>
            </chakra.rect>
          );
        })}
      </chakra.svg>
    </Box>
  );
}
