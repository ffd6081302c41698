import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../lib/api.js';
import type { Account } from '../../lib/types.js';
import { ErrorNote, Field, formatDate, Loading, PageTitle } from '../../lib/ui.js';
import { SESSION_KEY, signOut } from '../session/api.js';
import { ActivitySection } from './ActivitySection.js';
import { KeysSection } from './KeysSection.js';

const getAccount = async () => (await api.get<{ data: Account }>('/account')).data;

export default function AccountPage() {
  const account = useQuery({ queryKey: ['account', 'me'], queryFn: getAccount });
  return (
    <>
      <PageTitle title="Account" />
      <ErrorNote error={account.error} />
      {account.isPending && <Loading />}
      {account.data && <Profile account={account.data} />}
      <KeysSection />
      <Sessions />
      <ActivitySection />
    </>
  );
}

function Profile({ account }: { account: Account }) {
  const client = useQueryClient();
  const [email, setEmail] = useState(account.email);
  const [password, setPassword] = useState('');
  const [current, setCurrent] = useState('');
  // The server asks for the current password whenever the e-mail or password changes.
  const changing = password !== '' || email.trim() !== account.email;
  const save = useMutation({
    mutationFn: () =>
      api.put<{ message: string }>('/account/update', {
        email,
        ...(password ? { password } : {}),
        ...(changing ? { currentpassword: current } : {}),
      }),
    onSuccess: async () => {
      setPassword('');
      setCurrent('');
      await client.invalidateQueries({ queryKey: ['account'] });
      await client.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="panel" onSubmit={onSubmit} aria-labelledby="profile-h">
      <h2 id="profile-h">Sign-in details</h2>
      <p className="muted small">
        Account {account.username} · since {formatDate(account.registered)}
      </p>
      <Field id="account-email" label="E-mail">
        <input id="account-email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Field id="account-password" label="New password" hint="At least 8 characters; empty keeps the current one.">
        <input
          id="account-password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-describedby="account-password-hint"
        />
      </Field>
      <Field id="account-current" label="Current password" hint="Needed to change the e-mail or the password.">
        <input
          id="account-current"
          type="password"
          autoComplete="current-password"
          required={changing}
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          aria-describedby="account-current-hint"
        />
      </Field>
      <ErrorNote error={save.error} />
      {save.isSuccess && (
        <p role="status" className="ok">
          Saved.
        </p>
      )}
      <button type="submit" disabled={save.isPending}>
        Save
      </button>
    </form>
  );
}

function Sessions() {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const everywhere = useMutation({
    mutationFn: () => signOut(true),
    onSuccess: () => {
      client.clear();
      client.setQueryData(SESSION_KEY, null);
      navigate('/signin');
    },
  });
  return (
    <section className="panel" aria-labelledby="sessions-h">
      <h2 id="sessions-h">Sessions</h2>
      <p>Signed in on a computer you no longer use? End every session of this account, this one included.</p>
      <ErrorNote error={everywhere.error} />
      <button type="button" className="danger" disabled={everywhere.isPending} onClick={() => everywhere.mutate()}>
        Sign out everywhere
      </button>
    </section>
  );
}
