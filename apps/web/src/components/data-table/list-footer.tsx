import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { RefreshButton } from '../refresh-button';

interface ListFooterProps {
  /** the add button: its label and the page it opens */
  add: { label: string; to: string };
  refreshLabel: string;
  onRefresh: () => unknown;
  /** the list shown: its refetch (not the first load, which the table shows) spins the refresh button */
  list: { isFetching: boolean; isLoading: boolean };
  /** the page's own actions, between the two */
  children?: ReactNode;
}

/** A list page's footer: add first, the page's own actions, refresh last. */
export function ListFooter({ add, refreshLabel, onRefresh, list, children }: ListFooterProps) {
  return (
    <>
      <Button size="sm" component={Link} to={add.to}>
        {add.label}
      </Button>
      {children}
      <RefreshButton
        label={refreshLabel}
        onRefresh={onRefresh}
        isRefreshing={list.isFetching && !list.isLoading}
      />
    </>
  );
}
