import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, vi } from 'vitest';
import '../i18n/i18n';

// Pages are lazy-loaded: the first visit of a page in a test run waits for its module to be transformed.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks the layout APIs Mantine calls; these stand-ins answer "desktop width, no motion preference".
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;

afterEach(() => {
  cleanup();
  // The toast store is global; a toast left over from one test would fill the queue of the next.
  notifications.clean();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
