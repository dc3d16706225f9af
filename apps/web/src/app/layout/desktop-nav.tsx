import { Group, Text, Tooltip, UnstyledButton, em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isActiveItem } from './nav-items';
import { useNavItems } from './use-nav-items';
import classes from './desktop-nav.module.css';

/** The top menu from 769 px; below 1408 px the labels give way to icons so the full admin menu fits. */
export function DesktopNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const items = useNavItems();
  const showsLabels = useMediaQuery(`(min-width: ${em(1408)})`);
  return (
    <Group component="nav" aria-label={t('nav.mainNavigation')} gap={2} wrap="nowrap" visibleFrom="sm">
      {items.map((item) => {
        const { label, to, icon: Icon } = item;
        const isActive = isActiveItem(item, pathname);
        return (
          <Tooltip key={to} label={t(label)} disabled={showsLabels} openDelay={50} closeDelay={70}>
            <UnstyledButton
              component={Link}
              to={to}
              className={classes.link}
              data-active={isActive || undefined}
              aria-current={isActive ? 'page' : undefined}
              aria-label={t(label)}
            >
              <Icon size={18} stroke={1.6} />
              <Text component="span" size="sm" fw={500} visibleFrom="xl">
                {t(label)}
              </Text>
            </UnstyledButton>
          </Tooltip>
        );
      })}
    </Group>
  );
}
