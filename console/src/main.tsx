import { QueryClientProvider } from '@tanstack/react-query';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { queryClient } from './lib/query';
import { applyTheme } from './lib/theme';
import { Toasts } from './ui/toasts';
import './console.css';

// The nonce the server gave this load of the page, for the one inline <style> the dialogs add.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
if (nonce !== undefined) setNonce(nonce);
applyTheme();
const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Toasts>
          <App />
        </Toasts>
      </QueryClientProvider>
    </StrictMode>,
  );
}
