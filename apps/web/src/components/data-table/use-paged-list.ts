import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';

export const SERVER_PAGE_SIZE = 10;

export interface PagedListOptions<Row> {
  /** e.g. `['tokens', 'list', { order }]`; invalidate `['tokens']` after a mutation */
  queryKey: readonly unknown[];
  /** one server page; `p` starts at 0 */
  fetchPage: (page: number, signal: AbortSignal) => Promise<Row[]>;
  /** the search endpoint: answers every match at once */
  search?: (keyword: string, signal: AbortSignal) => Promise<Row[]>;
  /** trimmed search text; empty lists pages */
  keyword: string;
  serverPageSize?: number;
}

export interface PagedList<Row> {
  rows: Row[];
  isLoading: boolean;
  isFetching: boolean;
  /** the server may have rows beyond the ones fetched */
  hasMore: boolean;
  loadMore: () => void;
}

/**
 * List paging: server page 0 replaces, later pages append, and the next page is fetched when the
 * visitor reaches the last page shown. A keyword switches to the search endpoint.
 */
export function usePagedList<Row>(options: PagedListOptions<Row>): PagedList<Row> {
  const { queryKey, fetchPage, search, keyword, serverPageSize = SERVER_PAGE_SIZE } = options;
  const isSearching = keyword !== '' && search !== undefined;

  const pages = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, allPages) =>
      lastPage.length >= serverPageSize ? allPages.length : undefined,
    enabled: !isSearching,
    placeholderData: keepPreviousData,
  });

  const matches = useQuery({
    queryKey: [...queryKey, 'search', keyword],
    queryFn: ({ signal }) => (search ? search(keyword, signal) : Promise.resolve([])),
    enabled: isSearching,
    placeholderData: keepPreviousData,
  });

  if (isSearching) {
    return {
      rows: matches.data ?? [],
      isLoading: matches.isLoading,
      isFetching: matches.isFetching,
      hasMore: false,
      loadMore: () => undefined,
    };
  }
  return {
    rows: pages.data?.pages.flat() ?? [],
    isLoading: pages.isLoading,
    isFetching: pages.isFetching,
    hasMore: pages.hasNextPage,
    loadMore: () => {
      if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
    },
  };
}
