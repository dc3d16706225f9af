import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/app-providers';
import { createQueryClient } from '../../app/query-client';
import { ListFooter } from './list-footer';

function renderFooter(list: { isFetching: boolean; isLoading: boolean }) {
  const onRefresh = vi.fn();
  render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <ListFooter
          add={{ label: 'Add key', to: '/token/add' }}
          refreshLabel="Refresh"
          onRefresh={onRefresh}
          list={list}
        >
          <button type="button">Test all</button>
        </ListFooter>
      </MemoryRouter>
    </AppProviders>,
  );
  return { onRefresh, user: userEvent.setup() };
}

describe('ListFooter', () => {
  it('links to the add page, keeps the page actions between, and refreshes on click', async () => {
    const { onRefresh, user } = renderFooter({ isFetching: false, isLoading: false });
    expect(screen.getByRole('link', { name: 'Add key' })).toHaveAttribute('href', '/token/add');
    const buttons = screen.getAllByRole('button').map((button) => button.textContent);
    expect(buttons).toEqual(['Test all', 'Refresh']);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(onRefresh).toHaveBeenCalledOnce();
  });

  it('spins the refresh button while the list is fetched again', () => {
    renderFooter({ isFetching: true, isLoading: false });
    expect(screen.getByRole('button', { name: 'Refresh' })).toHaveAttribute('data-loading', 'true');
  });

  it('does not spin it during the first load, which the table shows', () => {
    renderFooter({ isFetching: true, isLoading: true });
    expect(screen.getByRole('button', { name: 'Refresh' })).not.toHaveAttribute('data-loading');
  });
});
