export { DataTable, ROWS_PER_PAGE, type DataTableColumn, type DataTableProps } from './data-table';
export { SearchBox } from './search-box';
export { useListUrlState, type ListUrlState } from './use-list-url-state';
export { usePagedList, SERVER_PAGE_SIZE, type PagedList, type PagedListOptions } from './use-paged-list';
export { pagingProps } from './paging-props';
export { ListFooter } from './list-footer';
