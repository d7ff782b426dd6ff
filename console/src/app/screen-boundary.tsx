import { Component, type ReactNode } from 'react';
import { Button } from '../ui/button';
import { Problem } from '../ui/status';

interface Props {
  children: ReactNode;
  /** Called before a retry: screens whose code failed to load get a fresh loader. */
  onRetry: () => void;
}

/** How often a failed screen tries again by itself, so the console recovers when the server is
 * back (docs/console.md#when-the-server-is-away). */
const retryMs = 5_000;

/** One screen failing (its code could not be loaded, or it threw) shows a message and 重试 in
 * its place; the frame, the navigation and the other screens stay. */
export class ScreenBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };
  private timer: ReturnType<typeof setInterval> | undefined;

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(this.retry, retryMs);
    window.addEventListener('online', this.retry);
  }

  override componentWillUnmount(): void {
    this.stopRetrying();
  }

  private stopRetrying() {
    clearInterval(this.timer);
    this.timer = undefined;
    window.removeEventListener('online', this.retry);
  }

  private retry = () => {
    this.stopRetrying();
    this.props.onRetry();
    this.setState({ error: null });
  };

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="flex flex-col items-start gap-3">
        <h1 className="text-xl font-semibold">这个页面没能打开</h1>
        <Problem>
          {offline(this.state.error) ? '无法连接服务器，服务器恢复后会自动重试。' : this.state.error.message}
        </Problem>
        <Button onClick={this.retry}>重试</Button>
      </div>
    );
  }
}

/** A screen's code that could not be fetched: the server or the network is away. */
const offline = (error: Error) =>
  /dynamically imported module|Importing a module script failed|fetch/i.test(error.message);
