import { PageOutlet } from './page-outlet.tsx';
import { PublicFrame } from './public-frame.tsx';

/** Landing, quiz, try-on and the 404 inside the router: the public frame around the outlet. */
export function PublicLayout() {
  return (
    <PublicFrame>
      <PageOutlet />
    </PublicFrame>
  );
}
