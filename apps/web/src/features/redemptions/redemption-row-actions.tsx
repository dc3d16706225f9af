import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RedemptionStatus, type Redemption } from '@gatehouse/shared';
import type { RedemptionActions } from './use-redemption-actions';

/** Copy, enable/disable and edit (both off once used: a used code is history), delete. */
export function RedemptionRowActions({
  redemption,
  actions,
}: {
  redemption: Redemption;
  actions: RedemptionActions;
}) {
  const { t } = useTranslation();
  const a = (key: string) => t(`redemptions.action.${key}`);
  const isUsed = redemption.status === RedemptionStatus.used;
  const isUnused = redemption.status === RedemptionStatus.unused;

  return (
    <Group gap={6} wrap="nowrap">
      <Button size="compact-xs" variant="light" onClick={() => actions.copy(redemption)}>
        {a('copy')}
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color={isUnused ? 'yellow' : 'green'}
        disabled={isUsed}
        loading={actions.isToggling(redemption.id)}
        onClick={() => actions.toggleStatus(redemption)}
      >
        {isUnused ? a('disable') : a('enable')}
      </Button>
      {isUsed ? (
        <Button size="compact-xs" variant="light" disabled>
          {a('edit')}
        </Button>
      ) : (
        <Button size="compact-xs" variant="light" component={Link} to={`/redemption/edit/${redemption.id}`}>
          {a('edit')}
        </Button>
      )}
      <Button size="compact-xs" variant="light" color="red" onClick={() => actions.remove(redemption)}>
        {a('delete')}
      </Button>
    </Group>
  );
}
