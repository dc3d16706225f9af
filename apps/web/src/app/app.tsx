import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { setApiNavigator } from '../api/client';
import { AppProviders } from './app-providers';
import { createQueryClient } from './query-client';
import { buildRouteObjects } from './routes';

function createAppRouter() {
  const router = createBrowserRouter(buildRouteObjects());
  setApiNavigator((path) => void router.navigate(path));
  return router;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
