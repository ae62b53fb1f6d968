import { CalendarDays, Mail } from 'lucide-react';
import { accountMessages } from '../../../../common/messages/account.ts';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { formatDate } from '../../../lib/dates.ts';
import type { SessionUser } from '../../../lib/session.ts';

const text = accountMessages;

/** Who is signed in: the email and since when they have been a member. */
export function AccountDetailsCard({ user }: { user: SessionUser }) {
  const details = [
    { icon: Mail, label: text.email, value: user.email },
    { icon: CalendarDays, label: text.memberSince, value: formatDate(user.createdAt) },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{text.detailsTitle}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-5 sm:grid-cols-2">
          {details.map(({ icon: Icon, label, value }) => (
            <div key={label} className="flex flex-col gap-1.5">
              <dt className="flex items-center gap-2 text-sm text-neutral-500">
                <Icon aria-hidden="true" className="size-4 text-accent-700" />
                {label}
              </dt>
              {/* Long addresses wrap rather than push the card wider than a phone. */}
              <dd className="pl-6 font-medium break-words text-neutral-950">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
