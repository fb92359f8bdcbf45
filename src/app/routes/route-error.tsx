import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '../components/ui/button.tsx';
import { useTranslation } from '../i18n/use-translation.ts';
import { NotFoundView } from './not-found-route.tsx';

// The views' error boundary: a view that crashed, or whose code failed to download. Keyed by
// the path where it is used, so navigating elsewhere starts afresh.

interface State {
  error: unknown;
}

export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // Kept for the developer console; the user sees the message below.
    console.warn('View failed', error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return <ViewFailed />;
  }
}

/** What the reader sees instead of a view that failed (a function: it uses hooks). */
function ViewFailed() {
  const { t } = useTranslation();
  return (
    <NotFoundView heading={t('view.failed.heading')}>
      <p>{t('view.failed.detail')}</p>
      <Button
        variant="secondary"
        size="md"
        onClick={() => window.location.reload()}
        className="mt-4"
      >
        {t('view.failed.reload')}
      </Button>
    </NotFoundView>
  );
}
