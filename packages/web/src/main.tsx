import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createAppStore } from './app/store';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const store = createAppStore();

createRoot(container).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
