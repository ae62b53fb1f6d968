import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { AppRouter } from './app/router.tsx';
import './styles.css';

// Every page but the landing page, which has its own entry (landing.tsx, decision 061).
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <App>
    <AppRouter />
  </App>,
);
