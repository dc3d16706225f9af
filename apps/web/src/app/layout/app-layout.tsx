import { AppShell, Container } from '@mantine/core';
import { useDisclosure, useDocumentTitle } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { useBranding } from '../../api/status';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';
import { MobileNav } from './mobile-nav';
import { useNewVersionNotice } from './use-new-version-notice';

export function AppLayout() {
  const [isMenuOpen, { toggle, close }] = useDisclosure(false);
  const { systemName } = useBranding();
  useDocumentTitle(systemName);
  useNewVersionNotice();

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 280, breakpoint: 'sm', collapsed: { mobile: !isMenuOpen, desktop: true } }}
      padding="md"
    >
      <AppShell.Header>
        <AppHeader isMenuOpen={isMenuOpen} onToggleMenu={toggle} />
      </AppShell.Header>
      <AppShell.Navbar
        p="sm"
        hiddenFrom="sm"
        // A closed menu slides off screen; hidden, its links also leave the tab order and the accessibility tree.
        // Transitioning visibility keeps the menu visible until it has slid out.
        style={{ visibility: isMenuOpen ? 'visible' : 'hidden', transitionProperty: 'transform, visibility' }}
      >
        <MobileNav onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main display="flex" style={{ flexDirection: 'column' }}>
        <Container size="xl" w="100%" px={{ base: 0, sm: 'md' }} style={{ flex: 1 }}>
          <Outlet />
        </Container>
        <Container size="xl" w="100%" px={{ base: 0, sm: 'md' }}>
          <AppFooter />
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
