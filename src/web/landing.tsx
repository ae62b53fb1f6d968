import './styles.css';

// The landing page's entry (decision 061). landing.html arrives with the page prerendered (see
// prerender.tsx), styled by this entry's stylesheet and usable as it is: its links are plain
// links. The code that takes it over is fetched once the browser has painted it, so the first
// paint waits for the document and the styles alone, not for the scripts.
const container = document.getElementById('root');
if (!container) throw new Error('landing.html has no #root element');

requestAnimationFrame(() => {
  // A frame is being drawn now: the import starts just after it.
  setTimeout(() => {
    void import('./features/landing/landing-app.tsx').then(({ hydrateLanding }) =>
      hydrateLanding(container),
    );
  });
});
