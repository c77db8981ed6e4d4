/**
 * Entry of the SPA example: renders the app, whose React components (`@domainkit/widget/react`, from npm: the
 * workspace's `@domainkit/widget`) define <dk-domain-search> and <dk-buy-button>.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
