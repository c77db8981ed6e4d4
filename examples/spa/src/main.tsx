/**
 * Entry of the SPA example: imports the widget from npm (the workspace's `@domainkit/widget`), which defines
 * <dk-domain-search> and <dk-buy-button>, and opts into its React 19 JSX typings.
 */
import '@domainkit/widget';
import type {} from '@domainkit/widget/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
