import { Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useBranding } from '../../api/status';
import { SanitizedHtml } from '../../components/sanitized-html';
import { useFooterHtml } from './use-footer-html';
import classes from './app-footer.module.css';

export function AppFooter() {
  const { t } = useTranslation();
  const footerHtml = useFooterHtml();
  const { systemName } = useBranding();
  return (
    <Box component="footer" className={classes.footer}>
      {footerHtml ? (
        <SanitizedHtml html={footerHtml} className={classes.custom} />
      ) : (
        <Text size="sm" c="dimmed">
          {t('common.footerCredit', { systemName, version: `v${__APP_VERSION__}` })}
        </Text>
      )}
    </Box>
  );
}
