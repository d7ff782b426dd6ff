import { Redirect, Route, Router, Switch } from 'wouter';
import { useGuardedLocation } from '../lib/guarded-location';
import { useOperator } from '../lib/session';
import { Waiting } from '../ui/status';
import { SignInScreen } from '../features/sign-in/sign-in-screen';
import { Frame } from './frame';
import { screens } from './screens';
import { NotFoundScreen, RequiresAdmin } from './gates';

/** Signed out: the sign-in screen, whatever the address (it stays, for after signing in). Signed
 * in: the frame and the screen the address names; admin screens only for admins. */
export function App() {
  const operator = useOperator();
  // While it asks who is signed in: a page with its landmark and heading, like every screen.
  if (operator === undefined) {
    return (
      <main className="flex min-h-dvh items-center justify-center">
        <h1 className="sr-only">运营后台</h1>
        <Waiting />
      </main>
    );
  }
  if (operator === null) return <SignInScreen />;
  return (
    <Router base="/admin" hook={useGuardedLocation}>
      <Frame operator={operator}>
        <Switch>
          <Route path="/">
            <Redirect to="/bulletins" replace />
          </Route>
          {screens.map(({ path, Screen, adminOnly }) => (
            <Route key={path} path={path}>
              {(params: Record<string, string | undefined>) =>
                adminOnly === true && operator.role !== 'admin' ? (
                  <RequiresAdmin />
                ) : (
                  <Screen params={params} operator={operator} />
                )
              }
            </Route>
          ))}
          <Route>
            <NotFoundScreen />
          </Route>
        </Switch>
      </Frame>
    </Router>
  );
}
