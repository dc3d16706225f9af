import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import type { RouteObject } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage } from './not-found-page';
import { RequireLogin } from './require-login';
import { RouteError } from './route-error';

interface AppRoute {
  path: string;
  /** A page module's default export, loaded on first visit. */
  page: LazyExoticComponent<ComponentType>;
  /** Guard: only visitors with a stored user; others are sent to /login and back. */
  requiresLogin?: boolean;
}

/**
 * The console's routes. Add a page with one line; a path that is not listed shows the not-found page.
 */
export const appRoutes: AppRoute[] = [
  { path: '/', page: lazy(() => import('../features/home/home-page')) },
  { path: '/about', page: lazy(() => import('../features/home/about-page')) },
  { path: '/chat', page: lazy(() => import('../features/home/chat-page')) },
  { path: '/login', page: lazy(() => import('../features/auth/login-page')) },
  { path: '/login/2fa', page: lazy(() => import('../features/two-factor/two-factor-login-page')) },
  { path: '/register', page: lazy(() => import('../features/auth/register-page')) },
  { path: '/reset', page: lazy(() => import('../features/accounts/reset-request-page')) },
  { path: '/user/reset', page: lazy(() => import('../features/accounts/reset-confirm-page')) },
  { path: '/oauth/github', page: lazy(() => import('../features/accounts/github-callback-page')) },
  { path: '/oauth/lark', page: lazy(() => import('../features/accounts/lark-callback-page')) },
  { path: '/oauth/oidc', page: lazy(() => import('../features/accounts/oidc-callback-page')) },
  { path: '/channel', page: lazy(() => import('../features/channels/channels-page')), requiresLogin: true },
  {
    path: '/channel/add',
    page: lazy(() => import('../features/channels/channel-edit-page')),
    requiresLogin: true,
  },
  {
    path: '/channel/add/:id',
    page: lazy(() => import('../features/channels/channel-edit-page')),
    requiresLogin: true,
  },
  {
    path: '/channel/edit/:id',
    page: lazy(() => import('../features/channels/channel-edit-page')),
    requiresLogin: true,
  },
  { path: '/user/edit', page: lazy(() => import('../features/users/self-edit-page')), requiresLogin: true },
  { path: '/user', page: lazy(() => import('../features/users/users-page')), requiresLogin: true },
  { path: '/user/add', page: lazy(() => import('../features/users/user-add-page')), requiresLogin: true },
  {
    path: '/user/edit/:id',
    page: lazy(() => import('../features/users/user-edit-page')),
    requiresLogin: true,
  },
  { path: '/setting', page: lazy(() => import('../features/settings/settings-page')), requiresLogin: true },
  { path: '/token', page: lazy(() => import('../features/tokens/tokens-page')), requiresLogin: true },
  { path: '/token/add', page: lazy(() => import('../features/tokens/token-edit-page')), requiresLogin: true },
  {
    path: '/token/edit/:id',
    page: lazy(() => import('../features/tokens/token-edit-page')),
    requiresLogin: true,
  },
  {
    path: '/redemption',
    page: lazy(() => import('../features/redemptions/redemptions-page')),
    requiresLogin: true,
  },
  {
    path: '/redemption/add',
    page: lazy(() => import('../features/redemptions/redemption-edit-page')),
    requiresLogin: true,
  },
  {
    path: '/redemption/edit/:id',
    page: lazy(() => import('../features/redemptions/redemption-edit-page')),
    requiresLogin: true,
  },
  {
    path: '/playground',
    page: lazy(() => import('../features/playground/playground-page')),
    requiresLogin: true,
  },
  { path: '/topup', page: lazy(() => import('../features/topup/topup-page')), requiresLogin: true },
  { path: '/pricing', page: lazy(() => import('../features/pricing/pricing-page')), requiresLogin: true },
  { path: '/log', page: lazy(() => import('../features/logs/logs-page')), requiresLogin: true },
  { path: '/audit', page: lazy(() => import('../features/audit/audit-page')), requiresLogin: true },
  {
    path: '/api-reference',
    page: lazy(() => import('../features/api-reference/api-reference-page')),
    requiresLogin: true,
  },
];

function toRouteObject({ path, page: Page, requiresLogin }: AppRoute): RouteObject {
  const element = (
    <Suspense fallback={<PageLoader />}>
      <Page />
    </Suspense>
  );
  return {
    path,
    element: requiresLogin ? <RequireLogin>{element}</RequireLogin> : element,
    errorElement: <RouteError />,
  };
}

export function buildRouteObjects(routes: AppRoute[] = appRoutes): RouteObject[] {
  return [
    {
      element: <AppLayout />,
      children: [...routes.map(toRouteObject), { path: '*', element: <NotFoundPage /> }],
    },
  ];
}
