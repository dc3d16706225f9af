import { Button } from '@mantine/core';

interface RefreshButtonProps {
  label: string;
  onRefresh: () => unknown;
  /** a refetch is running (not the first load, which the table shows itself) */
  isRefreshing: boolean;
}

/** The list footer's refresh button, spinning while the list is fetched again. */
export function RefreshButton({ label, onRefresh, isRefreshing }: RefreshButtonProps) {
  return (
    <Button size="sm" variant="default" onClick={() => void onRefresh()} loading={isRefreshing}>
      {label}
    </Button>
  );
}
