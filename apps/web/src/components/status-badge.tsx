import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { badgeFor, type Badge as BadgeInfo } from '@gatehouse/shared';

interface StatusBadgeProps {
  /** one of the shared badge maps (tokenStatusBadges, logTypeBadges …) */
  map: Record<number, BadgeInfo>;
  value: number;
}

// A narrow table cell must not squeeze the label onto two lines.
const WHOLE_LABEL = { minWidth: 'max-content' };

/** The one way a status, role or type number is shown: the shared badge map's colour and translated label. */
export function StatusBadge({ map, value }: StatusBadgeProps) {
  const { t } = useTranslation();
  const badge = badgeFor(map, value);
  return (
    <Badge color={badge.color} variant="light" tt="none" style={WHOLE_LABEL}>
      {t(badge.label)}
    </Badge>
  );
}
