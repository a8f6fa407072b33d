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
import { useT } from '../../i18n.tsx';
import { useRoleName } from '../users/role-names.ts';

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
  const t = useT();
  const [page, setPage] = useState(1);
  const list = useLoad<NewsList>(`/news.json?page=${page}`);
  const writer = mayManageNews({ role: ws.user.user_group_id });
  const items = list.data?.news ?? [];
  const toSign = items.filter((n) => n.News.sign && n.NewsSignature.length === 0);
  return (
    <section data-testid="news">
      <ScreenHead title={t('shell.screenNews')}>
        {writer && (
          <button type="button" onClick={() => goTo('news', 'new')}>
            {t('news.write')}
          </button>
        )}
      </ScreenHead>
      {list.loading && <Busy />}
      <Outcome error={list.error} />
      {toSign.length > 0 && (
        <p className="notice" data-testid="to-sign">
          {t('news.toSign', { count: toSign.length })}
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
                  <span className="badge badge-ok">{t('news.signed')}</span>
                ) : (
                  <span className="badge badge-warn">{t('news.signatureNeeded')}</span>
                ))}
              <div className="muted small">{n.News.created}</div>
              {n.News.summary && <p>{n.News.summary}</p>}
            </li>
          );
        })}
      </ul>
      {list.data && items.length === 0 && <p className="empty">{t('news.noNews')}</p>}
      <Pager paginate={list.data?.pagination} onPage={setPage} label={t('news.pages')} />
    </section>
  );
}

function NewsArticle({ slug }: { slug: string }) {
  const ws = useWorkspace();
  const t = useT();
  const roleName = useRoleName();
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
      return t('news.signedDone');
    });
  };

  const remove = () => {
    if (!window.confirm(t('news.confirmDelete', { name: a.News.name }))) return;
    void act.run(async () => {
      await post(`/manager/news/news/delete/${a.News.id}.json`);
      goTo('news');
    });
  };

  const signers = Object.entries(a.NewsSignature);
  return (
    <article data-testid="news-article">
      <ScreenHead title={a.News.name}>
        <a href="#news">{t('news.allNews')}</a>
        {writer && (
          <>
            <button type="button" className="secondary small" onClick={() => goTo('news', `edit:${a.News.slug}`)}>
              {t('news.edit')}
            </button>
            <button type="button" className="secondary small danger" onClick={remove}>
              {t('news.delete')}
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
            {t('news.youSigned')}
          </p>
        ) : (
          <form className="card-form sign-form" onSubmit={sign} aria-label={t('news.signForm')} noValidate>
            <p>
              <strong>{t('news.needsSignature')}</strong> {t('news.enterPassword')}
            </p>
            <FormField label={t('news.yourPassword')} error={errorOf(act.errors, 'password')}>
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
              {act.busy ? t('news.signing') : t('news.sign')}
            </button>
          </form>
        ))}
      <Outcome error={act.error} done={act.done} />
      {a.NewsRecipientUsers !== undefined && (
        <section className="card" aria-labelledby="receipts" data-testid="receipts">
          <h2 id="receipts">{t('news.receipts')}</h2>
          <p>
            {t('news.forRoles', {
              roles: a.NewsRecipient?.length
                ? (a.NewsRecipient ?? []).map((r) => roleName(r, ROLE_NAMES[r as Role])).join(', ')
                : t('news.everyRole'),
            })}{' '}
            · {t('news.recipients', { count: a.NewsRecipientUsers })}
            {a.News.sign ? ` · ${t('news.signedCount', { count: signers.length })}` : ''}
          </p>
          {a.News.sign && (
            <ul className="plain">
              {signers.map(([id, name]) => (
                <li key={id}>✓ {name}</li>
              ))}
              {signers.length === 0 && <li className="empty">{t('news.nobodySigned')}</li>}
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
  const t = useT();
  const roleName = useRoleName();
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
      aria-label={form.id ? t('news.editArticle') : t('news.write')}
      noValidate
      data-testid="news-write"
    >
      <h1>{form.id ? t('news.editArticle') : t('news.write')}</h1>
      <div className="grid">
        <FormField label={t('news.title')} error={e('News.name')} wide>
          {(p) => <input {...p} value={form.News.name} onChange={(v) => setN({ name: v.target.value })} />}
        </FormField>
        <FormField label={t('news.category')} error={e('News.category')}>
          {(p) => <input {...p} value={form.News.category} onChange={(v) => setN({ category: v.target.value })} />}
        </FormField>
        <FormField label={t('news.base')} error={e('News.base_id')} hint={t('news.everyBaseHint')}>
          {(p) => (
            <select {...p} value={form.News.base_id} onChange={(v) => setN({ base_id: v.target.value })}>
              <option value="">{t('news.everyBase')}</option>
              {bases.data?.bases.map((b) => (
                <option key={b.Base.id} value={b.Base.id}>
                  {b.Base.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label={t('news.text')} error={e('News.content')} wide>
          {(p) => (
            <textarea {...p} rows={8} value={form.News.content} onChange={(v) => setN({ content: v.target.value })} />
          )}
        </FormField>
      </div>
      <fieldset>
        <legend>{t('news.recipientsLegend')}</legend>
        <div className="grid">
          {WRITABLE_ROLES.map((r) => (
            <Check
              key={r}
              label={roleName(r, ROLE_NAMES[r])}
              checked={recipients.includes(r)}
              onChange={(on) => toggleRole(r, on)}
            />
          ))}
        </div>
        {e('NewsRecipient.user_group_id') && <p className="field-error">{e('NewsRecipient.user_group_id')}</p>}
      </fieldset>
      <div className="actions-row">
        <Check label={t('news.notify')} checked={form.News.notification} onChange={(v) => setN({ notification: v })} />
        <Check label={t('news.needsAck')} checked={form.News.sign} onChange={(v) => setN({ sign: v })} />
      </div>
      <div className="actions-row">
        <button type="submit" disabled={act.busy}>
          {act.busy ? t('news.publishing') : form.id ? t('news.saveArticle') : t('news.publish')}
        </button>
        <button type="button" className="secondary" onClick={() => goTo('news')}>
          {t('news.cancel')}
        </button>
        <Outcome error={act.error} />
      </div>
    </form>
  );
}
