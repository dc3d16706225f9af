import type { ListUrlState } from './use-list-url-state';
import type { PagedList } from './use-paged-list';

/** The DataTable props that come from a paged list and the URL list state, wired the same way on every page. */
export function pagingProps<Row>(list: PagedList<Row>, state: ListUrlState) {
  return {
    rows: list.rows,
    isLoading: list.isLoading,
    hasMore: list.hasMore,
    onReachLastPage: list.loadMore,
    page: state.page,
    onPageChange: state.setPage,
  };
}
