import { translator } from '@ops/shared/i18n/index';
import { Component, type ErrorInfo, type ReactNode, useContext } from 'react';
import { IntlContext } from 'react-intl';

interface Props {
  /** The screen's menu label, for the sentence. */
  label: string;
  /** Back to the role's home screen (the menu stays usable anyway). */
  onHome(): void;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * One screen's fault never blanks the app: a screen that throws while rendering
 * (or whose code cannot load) shows a sentence with Retry and a way home, and the
 * top bar, sync bar and menu around it stay usable. The shell keys it by screen,
 * so opening another screen starts clean.
 */
export class ScreenBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept in the console for a support request; the person sees the sentence.
    console.error(`Screen "${this.props.label}" failed:`, error, info.componentStack);
  }

  retry = () => this.setState({ error: null });

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <ScreenError label={this.props.label} message={error.message} onRetry={this.retry} onHome={this.props.onHome} />
    );
  }
}

export function ScreenError({
  label,
  message,
  onRetry,
  onHome,
}: {
  label: string;
  message: string;
  onRetry(): void;
  onHome(): void;
}) {
  // The app's language when the language provider is above (always in the app); English without one, so the
  // fallback never fails for want of a provider.
  const t = translator(useContext(IntlContext)?.locale);
  return (
    <section className="screen-error" role="alert" data-testid="screen-error" aria-labelledby="screen-error-title">
      <h2 id="screen-error-title">{label}</h2>
      <p>{t('shell.screenError', { message: message || t('shell.unexpectedError') })}</p>
      <div className="actions-row">
        <button type="button" onClick={onRetry}>
          {t('shell.retry')}
        </button>
        <button type="button" className="secondary" onClick={onHome}>
          {t('shell.goHome')}
        </button>
      </div>
    </section>
  );
}
