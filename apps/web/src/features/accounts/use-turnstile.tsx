import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStatus } from '../../api/status';
import { showInfo } from '../../api/toast';
import { loadTurnstile } from './turnstile-script';

export interface Turnstile {
  /** the widget to place in the form; null while the human check is off */
  widget: ReactNode;
  /**
   * The token for the `turnstile` query value: '' while the check is off, null (after telling the visitor to
   * wait) while the widget has not produced one yet.
   */
  takeToken: () => string | null;
  /** Asks the widget for a fresh token: each one is accepted by the server once. */
  reset: () => void;
}

/** The optional human check of register, verification and reset, from the server status. */
export function useTurnstile(): Turnstile {
  const { t, i18n } = useTranslation();
  const status = useStatus();
  const siteKey = status?.turnstile_check ? status.turnstile_site_key : '';
  const container = useRef<HTMLDivElement>(null);
  const widgetId = useRef<string | null>(null);
  const token = useRef('');
  const [hasFailed, setHasFailed] = useState(false);
  const language = i18n.language === 'zh' ? 'zh-cn' : 'en';

  useEffect(() => {
    if (!siteKey) return;
    let isActive = true;
    loadTurnstile()
      .then((turnstile) => {
        if (!isActive || !container.current) return;
        widgetId.current =
          turnstile.render(container.current, {
            sitekey: siteKey,
            callback: (value) => (token.current = value),
            'expired-callback': () => (token.current = ''),
            'error-callback': () => (token.current = ''),
            theme: 'auto',
            language,
          }) ?? null;
      })
      .catch(() => {
        if (isActive) setHasFailed(true);
      });
    setHasFailed(false);
    return () => {
      isActive = false;
      if (widgetId.current !== null) window.turnstile?.remove(widgetId.current);
      widgetId.current = null;
      token.current = '';
    };
  }, [siteKey, language]);

  const takeToken = useCallback(() => {
    if (!siteKey) return '';
    if (token.current) return token.current;
    showInfo(t('accounts.turnstile.checking'));
    return null;
  }, [siteKey, t]);

  const reset = useCallback(() => {
    token.current = '';
    if (widgetId.current !== null) window.turnstile?.reset(widgetId.current);
  }, []);

  const widget = siteKey ? (
    <Box>
      <Box ref={container} data-testid="turnstile" mih={hasFailed ? 0 : 65} />
      {hasFailed && (
        <Text size="sm" c="red" role="alert">
          {t('accounts.turnstile.loadFailed')}
        </Text>
      )}
    </Box>
  ) : null;

  return { widget, takeToken, reset };
}
