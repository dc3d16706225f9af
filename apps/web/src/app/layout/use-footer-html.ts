import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { StorageKey } from '../../api/storage';
import { statusQueryOptions } from '../../api/status';

const FOOTER_READ_ATTEMPTS = 5;
const FOOTER_READ_INTERVAL_MS = 200;

/**
 * While the status loads, the footer re-reads the stored footer HTML up to 5 times at 200 ms, so a
 * footer stored by another tab or an earlier visit shows as early as possible; the fresh status wins once loaded.
 */
export function useFooterHtml(): string {
  const { data: status } = useQuery(statusQueryOptions());
  const [storedHtml, setStoredHtml] = useState(() => localStorage.getItem(StorageKey.footerHtml) ?? '');

  useEffect(() => {
    if (storedHtml || status) return;
    let attemptsLeft = FOOTER_READ_ATTEMPTS;
    const timer = setInterval(() => {
      attemptsLeft -= 1;
      const html = localStorage.getItem(StorageKey.footerHtml) ?? '';
      if (html) setStoredHtml(html);
      if (html || attemptsLeft <= 0) clearInterval(timer);
    }, FOOTER_READ_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [storedHtml, status]);

  return status ? status.footer_html : storedHtml;
}
