// Applies the stored colour scheme before the console's code loads, so a dark console never paints light first.
// A file rather than an inline script: the console's Content-Security-Policy allows scripts from this server only.
/* global window, document */
// Keep in sync with Mantine's localStorageColorSchemeManager and colorSchemeStorageKey in src/app/app-providers.tsx.
(function () {
  try {
    var stored = window.localStorage.getItem('gatehouse-color-scheme');
    var scheme = stored === 'light' || stored === 'dark' || stored === 'auto' ? stored : 'light';
    if (scheme === 'auto') {
      scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    }
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  } catch {
    // No storage (a privacy mode): the console applies its default when it starts.
  }
})();
