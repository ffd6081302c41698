import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ErrorNote, Field, Loading, PageTitle } from '../../lib/ui.js';
import { SESSION_KEY, setUp, setupState } from './api.js';

/** The first account, made with the one-time token of the setup address the server logged. */
export function SetupPage() {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const state = useQuery({ queryKey: ['setup'], queryFn: setupState });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const create = useMutation({
    mutationFn: () => setUp({ token, email, password }),
    onSuccess: (session) => {
      client.setQueryData(SESSION_KEY, session);
      client.setQueryData(['setup'], { needed: false, registration: state.data?.registration ?? 'closed' });
      navigate('/', { replace: true });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <main id="main" className="narrow card">
      <p className="brand">Redirectory</p>
      <PageTitle title="Set up Redirectory" />
      {state.isPending && <Loading />}
      <ErrorNote error={state.error} />
      {state.data && !state.data.needed && (
        <p>
          This server already has an account. <Link href="/signin">Sign in</Link>.
        </p>
      )}
      {state.data?.needed && (
        <form onSubmit={onSubmit}>
          <p>Create the first account. It owns everything you make here; you can make more accounts later with the CLI.</p>
          {!token && (
            <p className="error" role="alert">
              This address has no setup token. Open the setup address the server wrote to its log.
            </p>
          )}
          <Field id="email" label="E-mail">
            <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <Field id="password" label="Password" hint="At least 8 characters.">
            <input
              id="password"
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-describedby="password-hint"
            />
          </Field>
          <ErrorNote error={create.error} />
          <button type="submit" disabled={create.isPending || !token}>
            Create account
          </button>
        </form>
      )}
    </main>
  );
}
