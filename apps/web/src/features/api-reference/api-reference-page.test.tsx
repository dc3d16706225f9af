import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StorageKey } from '../../api/storage';
import { envelope, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

const document = {
  openapi: '3.1.0',
  info: { title: 'Gatehouse API', version: 'v1.2.3' },
  paths: {
    '/api/user/login': {
      post: {
        summary: 'Sign in with username and password',
        tags: ['accounts'],
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
    '/api/channel': {
      get: { summary: 'List channels', tags: ['channels'], parameters: [{ name: 'keyword', in: 'query' }] },
    },
  },
};

function withServer() {
  return mockApi({
    'GET /api/status': envelope(testStatus()),
    'GET /api/user/self': envelope(testUser()),
    'GET /api/openapi.json': document,
  });
}

describe('API reference page', () => {
  it('lists the paths and methods of the OpenAPI document for admins', async () => {
    withServer();
    localStorage.setItem(StorageKey.user, JSON.stringify(testUser({ role: 10 })));
    renderApp('/api-reference');
    expect(await screen.findByText('/api/user/login')).toBeInTheDocument();
    expect(screen.getByText('Sign in with username and password')).toBeInTheDocument();
    expect(screen.getByText('/api/channel')).toBeInTheDocument();
    expect(screen.getByText('POST')).toBeInTheDocument();
  });

  it('tells a common user it is for administrators', async () => {
    withServer();
    localStorage.setItem(StorageKey.user, JSON.stringify(testUser({ role: 1 })));
    renderApp('/api-reference');
    expect(await screen.findByText('The API reference is for administrators.')).toBeInTheDocument();
  });
});
