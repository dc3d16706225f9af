import { notifications } from '@mantine/notifications';

type ToastKind = 'success' | 'info' | 'error' | 'warning' | 'notice';

/** Auto-close times in milliseconds. */
export const toastDurations: Record<ToastKind, number> = {
  success: 1500,
  info: 3000,
  error: 5000,
  warning: 10000,
  notice: 20000,
};

const colors: Record<ToastKind, string> = {
  success: 'green',
  info: 'blue',
  error: 'red',
  warning: 'yellow',
  notice: 'indigo',
};

const NARROW_SCREEN_QUERY = '(max-width: 600px)';

function showToast(kind: ToastKind, message: string): void {
  const log = kind === 'error' ? console.error : kind === 'warning' ? console.warn : console.info;
  log(`[${kind}] ${message}`);
  notifications.show({
    message,
    color: colors[kind],
    autoClose: toastDurations[kind],
    position: window.matchMedia(NARROW_SCREEN_QUERY).matches ? 'top-center' : 'top-right',
    withBorder: true,
  });
}

export const showSuccess = (message: string): void => showToast('success', message);
export const showInfo = (message: string): void => showToast('info', message);
export const showError = (message: string): void => showToast('error', message);
export const showWarning = (message: string): void => showToast('warning', message);
export const showNotice = (message: string): void => showToast('notice', message);
