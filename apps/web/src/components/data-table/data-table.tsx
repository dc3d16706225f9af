import { useEffect, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Center, Group, Loader, Pagination, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './data-table.module.css';

export const ROWS_PER_PAGE = 10;

export interface DataTableColumn<Row> {
  key: string;
  header: ReactNode;
  render: (row: Row) => ReactNode;
  /** makes the header clickable: sorts the fetched rows by this value */
  sortValue?: (row: Row) => string | number;
  width?: number | string;
}

export interface DataTableProps<Row> {
  columns: DataTableColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  isLoading?: boolean;
  /** 1-based page shown, and its setter (kept in the URL by `useListUrlState`) */
  page: number;
  onPageChange: (page: number) => void;
  /** the server has more rows: called when the visitor reaches the last page shown */
  hasMore?: boolean;
  onReachLastPage?: () => void;
  emptyText?: string;
  /** buttons under the table (add, refresh …) */
  footer?: ReactNode;
  rowsPerPage?: number;
  /** makes each row open something (a detail drawer): by click, or Enter or Space on the focused row */
  onRowClick?: (row: Row) => void;
  /** what a row's click opens, for screen readers, e.g. "Details of the entry at 12:00" */
  rowLabel?: (row: Row) => string;
}

type SortDirection = 'ascending' | 'descending';

function compare(left: string | number, right: string | number): number {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return String(left).localeCompare(String(right));
}

/** A table of columns only: fetching lives in the feature's queries, list state in the URL. */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const {
    columns,
    rows,
    rowKey,
    isLoading,
    page,
    onPageChange,
    hasMore,
    onReachLastPage,
    footer,
    onRowClick,
  } = props;
  const rowsPerPage = props.rowsPerPage ?? ROWS_PER_PAGE;
  const { t } = useTranslation();
  const [sort, setSort] = useState<{ key: string; direction: SortDirection } | null>(null);

  const sortedRows = useMemo(() => {
    const column = sort && columns.find((candidate) => candidate.key === sort.key);
    if (!sort || !column?.sortValue) return rows;
    const sign = sort.direction === 'ascending' ? 1 : -1;
    return [...rows].sort((left, right) => sign * compare(column.sortValue!(left), column.sortValue!(right)));
  }, [rows, columns, sort]);

  const totalPages = Math.max(1, Math.ceil(sortedRows.length / rowsPerPage) + (hasMore ? 1 : 0));
  const shownPage = Math.min(page, totalPages);
  const pageRows = sortedRows.slice((shownPage - 1) * rowsPerPage, shownPage * rowsPerPage);

  // Reaching the last page of what was fetched asks the server for the next page.
  useEffect(() => {
    if (hasMore && shownPage >= Math.ceil(sortedRows.length / rowsPerPage)) onReachLastPage?.();
  }, [hasMore, shownPage, sortedRows.length, rowsPerPage, onReachLastPage]);

  const toggleSort = (key: string) =>
    setSort((current) =>
      current?.key !== key
        ? { key, direction: 'ascending' }
        : current.direction === 'ascending'
          ? { key, direction: 'descending' }
          : null,
    );

  return (
    <>
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.key} w={column.width}>
                  {column.sortValue ? (
                    <UnstyledButton
                      className={classes.sortButton}
                      onClick={() => toggleSort(column.key)}
                      aria-sort={sort?.key === column.key ? sort.direction : 'none'}
                    >
                      <Group gap={4} wrap="nowrap">
                        {column.header}
                        {sort?.key !== column.key ? (
                          <IconSelector size={14} />
                        ) : sort.direction === 'ascending' ? (
                          <IconChevronUp size={14} />
                        ) : (
                          <IconChevronDown size={14} />
                        )}
                      </Group>
                    </UnstyledButton>
                  ) : (
                    column.header
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pageRows.map((row) => (
              <Table.Tr
                key={rowKey(row)}
                {...(onRowClick && {
                  className: classes.clickableRow,
                  tabIndex: 0,
                  'aria-label': props.rowLabel?.(row),
                  onClick: () => onRowClick(row),
                  onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => {
                    if (event.target !== event.currentTarget) return;
                    if (event.key !== 'Enter' && event.key !== ' ') return;
                    event.preventDefault();
                    onRowClick(row);
                  },
                })}
              >
                {columns.map((column) => (
                  <Table.Td key={column.key}>{column.render(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {isLoading && (
        <Center py="lg">
          <Loader size="sm" />
        </Center>
      )}
      {!isLoading && rows.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {props.emptyText ?? t('dataTable.empty')}
        </Text>
      )}
      <Group justify="space-between" mt="md" wrap="wrap" gap="sm">
        <Group gap="sm">{footer}</Group>
        <Pagination
          total={totalPages}
          value={shownPage}
          onChange={onPageChange}
          withEdges
          boundaries={1}
          siblings={1}
          size="sm"
          getControlProps={(control) => ({ 'aria-label': t(`dataTable.${control}`) })}
        />
      </Group>
    </>
  );
}
