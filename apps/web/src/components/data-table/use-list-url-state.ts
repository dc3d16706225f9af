import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export interface ListUrlState {
  /** 1-based page shown */
  page: number;
  setPage: (page: number) => void;
  keyword: string;
  setKeyword: (keyword: string) => void;
  /** any other list parameter kept in the URL (sort order, filters) */
  get: (name: string) => string;
  set: (name: string, value: string) => void;
}

/** List state lives in the URL, so a reload or a shared link shows the same page, search and order. */
export function useListUrlState(): ListUrlState {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === '' || (name === 'page' && value === '1')) next.delete(name);
            else next.set(name, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return {
    page: Math.max(1, Number(params.get('page')) || 1),
    setPage: (page) => update({ page: String(page) }),
    keyword: params.get('keyword') ?? '',
    // a new search starts on the first page
    setKeyword: (keyword) => update({ keyword: keyword.trim(), page: '1' }),
    get: (name) => params.get(name) ?? '',
    set: (name, value) => update({ [name]: value, page: '1' }),
  };
}
