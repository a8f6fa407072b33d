import { useState } from 'react';

/** Sign-in against the API of this origin (field client) or the configured server (Electron). */
export function App() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const res = await fetch('../api/v1/login.json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    const body = (await res.json()) as { result: boolean; message?: string; user?: { email: string } };
    setMessage(body.result ? `Signed in as ${body.user?.email}` : (body.message ?? 'Sign-in failed'));
  };
  return (
    <main className="signin">
      <h1>Ops Platform</h1>
      <form onSubmit={submit}>
        <label>
          Email <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </label>
        <label>
          Password <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        <button type="submit">Sign in</button>
      </form>
      {message && <p role="status">{message}</p>}
    </main>
  );
}
