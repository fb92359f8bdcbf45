import { Component, type ErrorInfo, type ReactNode } from 'react';
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
    return (
      <NotFoundView heading="Something went wrong">
        <p>This view could not be shown. Reloading the page usually helps.</p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mt-4 rounded-md border border-zinc-400 px-4 py-2 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          Reload
        </button>
      </NotFoundView>
    );
  }
}
