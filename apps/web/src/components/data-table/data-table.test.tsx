import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/app-providers';
import { createQueryClient } from '../../app/query-client';
import { DataTable } from './data-table';
import { useListUrlState } from './use-list-url-state';
import { usePagedList } from './use-paged-list';

interface Item {
  id: number;
  name: string;
}

const allItems: Item[] = Array.from({ length: 25 }, (_, index) => ({
  id: index + 1,
  name: `item ${index + 1}`,
}));

function ItemList({ fetchPage }: { fetchPage: (page: number) => Promise<Item[]> }) {
  const state = useListUrlState();
  const list = usePagedList<Item>({ queryKey: ['items'], fetchPage, keyword: '' });
  return (
    <DataTable
      columns={[
        { key: 'id', header: 'ID', render: (item) => item.id, sortValue: (item) => item.id },
        { key: 'name', header: 'Name', render: (item) => item.name },
      ]}
      rows={list.rows}
      rowKey={(item) => item.id}
      isLoading={list.isLoading}
      page={state.page}
      onPageChange={state.setPage}
      hasMore={list.hasMore}
      onReachLastPage={list.loadMore}
    />
  );
}

function renderList() {
  const fetchPage = vi.fn(async (page: number) => allItems.slice(page * 10, page * 10 + 10));
  render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <ItemList fetchPage={fetchPage} />
      </MemoryRouter>
    </AppProviders>,
  );
  return { fetchPage, user: userEvent.setup() };
}

describe('DataTable with usePagedList', () => {
  it('fetches the next server page when the visitor reaches the last page, and stops at the end', async () => {
    const { fetchPage, user } = renderList();
    expect(await screen.findByText('item 1')).toBeInTheDocument();
    expect(screen.queryByText('item 11')).not.toBeInTheDocument();
    // page 1 is the last page fetched, so page 2 of the server is asked for straight away
    await waitFor(() => expect(fetchPage).toHaveBeenCalledWith(1, expect.anything()));

    await user.click(screen.getByRole('button', { name: 'Last page' }));
    await waitFor(() => expect(fetchPage).toHaveBeenCalledWith(2, expect.anything()));
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(await screen.findByText('item 25')).toBeInTheDocument();
    // the third server page was short: nothing more is asked for
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it('sorts the fetched rows by a column when its header is clicked', async () => {
    const { user } = renderList();
    await screen.findByText('item 1');
    await user.click(screen.getByRole('button', { name: /ID/ }));
    await user.click(screen.getByRole('button', { name: /ID/ }));
    const firstCell = screen.getAllByRole('row')[1]?.querySelector('td');
    expect(firstCell?.textContent).not.toBe('1');
  });
});
