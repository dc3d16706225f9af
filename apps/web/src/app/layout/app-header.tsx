import { Burger, Button, Group, Image, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStoredUser } from '../../api/session';
import { useBranding } from '../../api/status';
import { ColorSchemeSwitch } from './color-scheme-switch';
import { DesktopNav } from './desktop-nav';
import { LanguageSwitcher } from './language-switcher';
import { UserMenu } from './user-menu';

interface AppHeaderProps {
  isMenuOpen: boolean;
  onToggleMenu: () => void;
}

export function AppHeader({ isMenuOpen, onToggleMenu }: AppHeaderProps) {
  const { t } = useTranslation();
  const user = useStoredUser();
  const { systemName, logo } = useBranding();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap" miw={0}>
        <Burger
          opened={isMenuOpen}
          onClick={onToggleMenu}
          hiddenFrom="sm"
          size="sm"
          aria-label={t('nav.toggleNavigation')}
          aria-expanded={isMenuOpen}
        />
        <UnstyledButton component={Link} to="/" aria-label={systemName}>
          <Group gap={8} wrap="nowrap">
            <Image src={logo} alt="" w={28} h={28} fit="contain" />
            <Text fw={700} size="lg" truncate="end" maw={180}>
              {systemName}
            </Text>
          </Group>
        </UnstyledButton>
        <DesktopNav />
      </Group>
      <Group gap="xs" wrap="nowrap">
        <ColorSchemeSwitch />
        <LanguageSwitcher />
        {user ? (
          <UserMenu user={user} />
        ) : (
          <Button component={Link} to="/login" size="sm" visibleFrom="sm">
            {t('nav.login')}
          </Button>
        )}
      </Group>
    </Group>
  );
}
