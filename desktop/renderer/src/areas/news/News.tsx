import { ROLE_NAMES, ROLES, type Role } from '@ops/shared';
import { ZNewsForm, ZSignForm } from '@ops/shared/forms/office';
import { type FormEvent, useState } from 'react';
import { useWorkspace } from '../../hooks.ts';
import type { ScreenProps } from '../../nav.ts';
import { mayManageNews } from '@ops/shared/rules/news/policy';
import {
  Busy,
  Check,
  check,
  errorOf,
  FormField,
  goTo,
  Outcome,
  type Paginate,
  Pager,
  ScreenHead,
  useAction,
  useApi,
  useLoad,
} from '../office-kit.tsx';

interface NewsItem {
  News: {
    id: string;
    slug: string;
    name: string;
    category: string | null;
    sign: boolean;
    created: string;
    base_id: string | null;
    summary?: string;
    view_count: number;
  };
  NewsSignature: unknown[];
}
interface NewsList {
  news: NewsItem[];
  pagination: Paginate;
}
interface Article {
  News: NewsItem['News'] & { content: string | null; notification: boolean };
  NewsSignature: Record<string, string>;
  NewsRecipient?: number[];
  NewsRecipientUsers?: number;
}

/** The news panel: the list (articles awaiting the reader's signature first), one article, or the write form. */
export default function News({ route }: Pick<ScreenProps, 'route'>) {
  if (route.id === 'new') return <NewsWrite />;
  if (route.id?.startsWith('edit:')) return <NewsWrite slug={route.id.slice(5)} />;
  if (route.id) return <NewsArticle slug={route.id} />;
  return <NewsIndex />;
}

function NewsIndex() {
  const ws = useWorkspace();
  const [page, setPage] = useState(1);
  const list = useLoad<NewsList>(`/news.json?page=${page}`);
  const writer = mayManageNews({ role: ws.user.user_group_id });
  const items = list.data?.news ?? [];
  const toSign = items.filter((n) => n.News.sign && n.NewsSignature.length === 0);
  return (
    <section data-testid="news">
      <ScreenHead title="News">
        {writer && (
          <button type="button" onClick={() => goTo('news', 'new')}>
            Write an article
          </button>
        )}
      </ScreenHead>
      {list.loading && <Busy />}
      <Outcome error={list.error} />
      {toSign.length > 0 && (
        <p className="notice" data-testid="to-sign">
          {toSign.length === 1 ? 'One article on this page needs' : `${toSign.length} articles on this page need`} your
          signature.
        </p>
      )}
      <ul className="news-list">
        {items.map((n) => {
          const signed = n.NewsSignature.length > 0;
          return (
            <li key={n.News.id} data-slug={n.News.slug}>
              <a href={`#news/${n.News.slug}`}>
                <strong>{n.News.name}</strong>
              </a>{' '}
              {n.News.category && <span className="badge badge-neutral">{n.News.category}</span>}{' '}
              {n.News.sign &&
                (signed ? (
                  <span className="badge badge-ok">signed</span>
                ) : (
                  <span className="badge badge-warn">signature needed</span>
                ))}
              <div className="muted small">{n.News.created}</div>
              {n.News.summary && <p>{n.News.summary}</p>}
            </li>
          );
        })}
      </ul>
      {list.data && items.length === 0 && <p className="empty">No news.</p>}
      <Pager paginate={list.data?.pagination} onPage={setPage} label="News pages" />
    </section>
  );
}

function NewsArticle({ slug }: { slug: string }) {
  const ws = useWorkspace();
  const { post } = useApi();
  const article = useLoad<Article>(`/news/news/view/${encodeURIComponent(slug)}.json`);
  const [password, setPassword] = useState('');
  const act = useAction();
  const writer = mayManageNews({ role: ws.user.user_group_id });

  if (!article.data) return article.error ? <Outcome error={article.error} /> : <Busy />;
  const a = article.data;
  const signedByMe = Object.hasOwn(a.NewsSignature, ws.user.id);

  const sign = async (e: FormEvent) => {
    e.preventDefault();
    const r = check(ZSignForm, { password });
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      await post(`/news/news/sign/${a.News.id}.json`, { password });
      setPassword('');
      article.reload();
      return 'Signed: your acknowledgement is recorded';
    });
  };

  const remove = () => {
    if (!window.confirm(`Delete the article ${a.News.name}?`)) return;
    void act.run(async () => {
      await post(`/manager/news/news/delete/${a.News.id}.json`);
      goTo('news');
    });
  };

  const signers = Object.entries(a.NewsSignature);
  return (
    <article data-testid="news-article">
      <ScreenHead title={a.News.name}>
        <a href="#news">All news</a>
        {writer && (
          <>
            <button type="button" className="secondary small" onClick={() => goTo('news', `edit:${a.News.slug}`)}>
              Edit
            </button>
            <button type="button" className="secondary small danger" onClick={remove}>
              Delete
            </button>
          </>
        )}
      </ScreenHead>
      <p className="muted small">
        {a.News.category ? `${a.News.category} · ` : ''}
        {a.News.created}
      </p>
      <div className="news-content">
        {(a.News.content ?? '').split(/\n{2,}/).map((para, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of a static text
          <p key={i}>{para}</p>
        ))}
      </div>
      {a.News.sign &&
        (signedByMe ? (
          <p className="badge badge-ok" data-testid="signed">
            You signed this article
          </p>
        ) : (
          <form className="card-form sign-form" onSubmit={sign} aria-label="Acknowledge with your password" noValidate>
            <p>
              <strong>This article needs your signature.</strong> Enter your password to confirm you read it.
            </p>
            <FormField label="Your password" error={errorOf(act.errors, 'password')}>
              {(p) => (
                <input
                  {...p}
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              )}
            </FormField>
            <button type="submit" disabled={act.busy}>
              {act.busy ? 'Signing…' : 'Sign'}
            </button>
          </form>
        ))}
      <Outcome error={act.error} done={act.done} />
      {a.NewsRecipientUsers !== undefined && (
        <section className="card" aria-labelledby="receipts" data-testid="receipts">
          <h2 id="receipts">Read receipts</h2>
          <p>
            For{' '}
            {a.NewsRecipient?.length
              ? (a.NewsRecipient ?? []).map((r) => ROLE_NAMES[r as Role] ?? r).join(', ')
              : 'every role'}{' '}
            · {a.NewsRecipientUsers} recipients
            {a.News.sign ? ` · ${signers.length} signed` : ''}
          </p>
          {a.News.sign && (
            <ul className="plain">
              {signers.map(([id, name]) => (
                <li key={id}>✓ {name}</li>
              ))}
              {signers.length === 0 && <li className="empty">Nobody signed yet.</li>}
            </ul>
          )}
        </section>
      )}
    </article>
  );
}

/** Recipients: every company role (the platform administrator belongs to no company). */
const WRITABLE_ROLES = (Object.keys(ROLE_NAMES).map(Number) as Role[]).filter((r) => r !== ROLES.PLATFORM_ADMIN);

function NewsWrite({ slug }: { slug?: string }) {
  const { post } = useApi();
  const existing = useLoad<Article>(slug ? `/news/news/view/${encodeURIComponent(slug)}.json` : null);
  const bases = useLoad<{ bases: Array<{ Base: { id: string; name: string } }> }>('/bases/index.json');
  const [form, setForm] = useState<{
    id?: string;
    News: { name: string; category: string; content: string; base_id: string; sign: boolean; notification: boolean };
    NewsRecipient: { user_group_id: number[] };
  } | null>(
    slug
      ? null
      : {
          News: { name: '', category: '', content: '', base_id: '', sign: false, notification: true },
          NewsRecipient: { user_group_id: WRITABLE_ROLES },
        },
  );
  const act = useAction();
  if (!form && existing.data) {
    const a = existing.data;
    setForm({
      id: a.News.id,
      News: {
        name: a.News.name,
        category: a.News.category ?? '',
        content: a.News.content ?? '',
        base_id: a.News.base_id ?? '',
        sign: a.News.sign,
        notification: a.News.notification,
      },
      NewsRecipient: { user_group_id: a.NewsRecipient?.length ? a.NewsRecipient : WRITABLE_ROLES },
    });
  }
  if (!form) return existing.error ? <Outcome error={existing.error} /> : <Busy />;
  const setN = (p: Partial<typeof form.News>) => setForm({ ...form, News: { ...form.News, ...p } });
  const recipients = form.NewsRecipient.user_group_id;
  const toggleRole = (r: number, on: boolean) =>
    setForm({ ...form, NewsRecipient: { user_group_id: on ? [...recipients, r] : recipients.filter((x) => x !== r) } });
  const e = (k: string) => errorOf(act.errors, k);

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const r = check(ZNewsForm, form);
    if (!r.ok) return act.invalid(r.errors);
    await act.run(async () => {
      const res = await post<{ slug: string }>('/manager/news/news/edit.json', {
        News: { ...form.News, ...(form.id ? { id: form.id } : {}) },
        NewsRecipient: form.NewsRecipient,
      });
      goTo('news', res.slug);
    });
  };

  return (
    <form
      className="card-form"
      onSubmit={submit}
      aria-label={form.id ? 'Edit article' : 'Write an article'}
      noValidate
      data-testid="news-write"
    >
      <h1>{form.id ? 'Edit article' : 'Write an article'}</h1>
      <div className="grid">
        <FormField label="Title" error={e('News.name')} wide>
          {(p) => <input {...p} value={form.News.name} onChange={(v) => setN({ name: v.target.value })} />}
        </FormField>
        <FormField label="Category" error={e('News.category')}>
          {(p) => <input {...p} value={form.News.category} onChange={(v) => setN({ category: v.target.value })} />}
        </FormField>
        <FormField label="Base" error={e('News.base_id')} hint="Empty: every base">
          {(p) => (
            <select {...p} value={form.News.base_id} onChange={(v) => setN({ base_id: v.target.value })}>
              <option value="">Every base</option>
              {bases.data?.bases.map((b) => (
                <option key={b.Base.id} value={b.Base.id}>
                  {b.Base.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Text" error={e('News.content')} wide>
          {(p) => (
            <textarea {...p} rows={8} value={form.News.content} onChange={(v) => setN({ content: v.target.value })} />
          )}
        </FormField>
      </div>
      <fieldset>
        <legend>Recipients</legend>
        <div className="grid">
          {WRITABLE_ROLES.map((r) => (
            <Check
              key={r}
              label={ROLE_NAMES[r]}
              checked={recipients.includes(r)}
              onChange={(on) => toggleRole(r, on)}
            />
          ))}
        </div>
        {e('NewsRecipient.user_group_id') && <p className="field-error">{e('NewsRecipient.user_group_id')}</p>}
      </fieldset>
      <div className="actions-row">
        <Check
          label="Notify the recipients"
          checked={form.News.notification}
          onChange={(v) => setN({ notification: v })}
        />
        <Check
          label="Needs a read acknowledgement (signed with the password)"
          checked={form.News.sign}
          onChange={(v) => setN({ sign: v })}
        />
      </div>
      <div className="actions-row">
        <button type="submit" disabled={act.busy}>
          {act.busy ? 'Publishing…' : form.id ? 'Save article' : 'Publish'}
        </button>
        <button type="button" className="secondary" onClick={() => goTo('news')}>
          Cancel
        </button>
        <Outcome error={act.error} />
      </div>
    </form>
  );
}
