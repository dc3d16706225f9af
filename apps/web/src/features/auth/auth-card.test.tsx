import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/app-providers';
import { createQueryClient } from '../../app/query-client';
import { AuthCard, AuthCardLink } from './auth-card';

describe('AuthCard', () => {
  it('shows its footer lines as a question followed by a link to the page that answers it', () => {
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <AuthCard
            title="Sign in"
            footer={<AuthCardLink prompt="No account yet?" to="/register" label="Register" />}
          >
            form
          </AuthCard>
        </MemoryRouter>
      </AppProviders>,
    );
    const link = screen.getByRole('link', { name: 'Register' });
    expect(link).toHaveAttribute('href', '/register');
    expect(link.parentElement).toHaveTextContent('No account yet? Register');
  });
});
