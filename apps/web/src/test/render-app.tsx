import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { ServerStatus, User } from '@gatehouse/shared';
import { setApiNavigator } from '../api/client';
import { AppProviders } from '../app/app-providers';
import { createQueryClient } from '../app/query-client';
import { buildRouteObjects } from '../app/routes';

/** Renders the whole console (layout, guard, route table) at `path`, as a visitor would open it. */
export function renderApp(path: string) {
  const router = createMemoryRouter(buildRouteObjects(), { initialEntries: [path] });
  setApiNavigator((target) => void router.navigate(target));
  const view = render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, user: userEvent.setup() };
}

export const testStatus = (overrides: Partial<ServerStatus> = {}): ServerStatus => ({
  system_name: 'Test Gateway',
  logo: '',
  footer_html: '',
  quota_per_unit: 500000,
  display_in_currency: true,
  display_token_stat: true,
  chat_link: '',
  top_up_link: '',
  server_address: '',
  version: __APP_VERSION__,
  start_time: 0,
  email_verification: false,
  password_login: true,
  password_register: true,
  register_enabled: true,
  turnstile_check: false,
  turnstile_site_key: '',
  github_oauth: false,
  github_client_id: '',
  wechat_login: false,
  wechat_qrcode: '',
  lark_client_id: '',
  theme: 'default',
  limits_degraded: false,
  ...overrides,
});

export const testUser = (overrides: Partial<User> = {}): User => ({
  id: 2,
  username: 'alice',
  display_name: 'Alice',
  email: '',
  role: 1,
  status: 1,
  group: 'default',
  quota: 500000,
  used_quota: 0,
  request_count: 0,
  github_id: '',
  wechat_id: '',
  lark_id: '',
  aff_code: 'abcd',
  inviter_id: 0,
  created_at: 0,
  rpm_limit: 0,
  tpm_limit: 0,
  max_parallel_requests: 0,
  budget: 0,
  budget_period: '',
  ...overrides,
});
