import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { ErrorNote, Field, PageTitle } from '../../lib/ui.js';
import { register, SESSION_KEY, setupState, signIn } from './api.js';

/** Where to go after signing in: only a path of the dashboard itself, never another site. */
function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignInPage() {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const search = useSearch();
  const setup = useQuery({ queryKey: ['setup'], queryFn: setupState });
  const [mode, setMode] = useState<'signin' | 'register'>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = useMutation({
    mutationFn: () => (mode === 'signin' ? signIn : register)({ email, password }),
    onSuccess: (session) => {
      client.setQueryData(SESSION_KEY, session);
      navigate(nextPath(search), { replace: true });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate();
  };
  const title = mode === 'signin' ? 'Sign in' : 'Create an account';
  return (
    <main id="main" className="narrow card">
      <p className="brand">Redirectory</p>
      <PageTitle title={title} />
      {setup.data?.needed && (
        <p className="note">
          No account exists yet. Open the setup address the server wrote to its log (<code>/app/setup?token=…</code>) to create the first one.
        </p>
      )}
      <form onSubmit={onSubmit}>
        <Field id="email" label="E-mail">
          <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field id="password" label="Password" hint={mode === 'register' ? 'At least 8 characters.' : undefined}>
          <input
            id="password"
            type="password"
            autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
            required
            minLength={mode === 'register' ? 8 : undefined}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-describedby={mode === 'register' ? 'password-hint' : undefined}
          />
        </Field>
        <ErrorNote error={submit.error} />
        <button type="submit" disabled={submit.isPending}>
          {submit.isPending ? 'Signing in…' : title}
        </button>
      </form>
      {setup.data?.registration === 'open' && (
        <p>
          <button type="button" className="link" onClick={() => setMode(mode === 'signin' ? 'register' : 'signin')}>
            {mode === 'signin' ? 'No account yet? Create one' : 'Have an account? Sign in'}
          </button>
        </p>
      )}
    </main>
  );
}
