import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { App } from './app.js';
import { ApiError, whenUnauthorized } from './lib/api.js';
import { SESSION_KEY } from './features/session/api.js';
import './styles.css';

const client = new QueryClient({
  queryCache: new QueryCache(),
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: false,
      // A refused request (4xx) will be refused again: only network failures and 5xx are retried, once.
      retry: (count, error) => count < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
  },
});

// A session that ended (expired, revoked, signed out elsewhere) takes the person back to the sign-in page.
whenUnauthorized(() => client.setQueryData(SESSION_KEY, null));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <Router base="/app">
        <App />
      </Router>
    </QueryClientProvider>
  </StrictMode>,
);
