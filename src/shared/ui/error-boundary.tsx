/**
 * An error boundary for the screens that have no router (the scan station, the large screen): a crash
 * shows the Chinese PageError with 重试 (reload) instead of a blank page.
 */
import { Component, type ReactNode } from 'react';
import { PageError } from './page-error';

type State = { error: unknown };

export class ErrorBoundary extends Component<{ children: ReactNode; homeHref?: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error('unknown error') };
  }

  override render() {
    if (this.state.error) return <PageError error={this.state.error} homeHref={this.props.homeHref} />;
    return this.props.children;
  }
}
