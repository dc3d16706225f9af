import { Button, Divider, NavLink, ScrollArea, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStoredUser } from '../../api/session';
import { ColorSchemeSegments } from './color-scheme-switch';
import { isActiveItem } from './nav-items';
import { useNavItems } from './use-nav-items';

/** The collapsible menu of the mobile layout; following a link closes it. */
export function MobileNav({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const items = useNavItems();
  const user = useStoredUser();
  return (
    <ScrollArea>
      <nav aria-label={t('nav.mainNavigation')}>
        {items.map((item) => {
          const { label, to, icon: Icon } = item;
          const isActive = isActiveItem(item, pathname);
          return (
            <NavLink
              key={to}
              component={Link}
              to={to}
              label={t(label)}
              leftSection={<Icon size={18} stroke={1.6} />}
              active={isActive}
              aria-current={isActive ? 'page' : undefined}
              onClick={onNavigate}
            />
          );
        })}
      </nav>
      {!user && (
        <>
          <Divider my="sm" />
          <Stack gap="xs">
            <Button component={Link} to="/login" onClick={onNavigate}>
              {t('nav.login')}
            </Button>
            <Button component={Link} to="/register" variant="default" onClick={onNavigate}>
              {t('nav.register')}
            </Button>
          </Stack>
        </>
      )}
      <Divider my="sm" />
      <ColorSchemeSegments />
    </ScrollArea>
  );
}
