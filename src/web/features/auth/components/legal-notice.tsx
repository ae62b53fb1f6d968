import { Link } from 'react-router';
import { authMessages } from '../../../../common/messages/auth.ts';
import { routes } from '../../../../common/product/routes.ts';
import { inlineLinkClasses } from './auth-links.tsx';

const notice = authMessages.legalNotice;

/** "By continuing, you agree to our Terms of Service and Privacy Policy." with both linked. */
export function LegalNotice() {
  return (
    <p className="text-xs leading-relaxed text-neutral-500">
      {notice.before}
      <Link to={routes.terms} className={inlineLinkClasses}>
        {notice.terms}
      </Link>
      {notice.between}
      <Link to={routes.privacy} className={inlineLinkClasses}>
        {notice.privacy}
      </Link>
      {notice.after}
    </p>
  );
}
