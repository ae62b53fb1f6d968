import { useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { accountMessages } from '../../../../common/messages/account.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { FormAlert } from '../../../components/ui/form-alert.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { notify } from '../../../components/ui/toast.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { useEndSession } from '../../../lib/sign-out.ts';
import { deleteAccount } from '../account-api.ts';

const text = accountMessages.deleteAccount;
const confirmInputId = 'delete-account-confirm';
const errorId = 'delete-account-error';

/**
 * The account page's "Delete account" section. Deleting cannot be undone, so the dialog asks
 * for the word DELETE to be typed; once the server has deleted the account (and ended its
 * sessions) this tab forgets the user and goes to /login.
 */
export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const endSession = useEndSession();
  const deletion = useMutation({ mutationFn: deleteAccount });
  const confirmed = typed.trim() === text.confirmWord;

  function onOpenChange(next: boolean) {
    // Not closable while the request runs: its outcome must be seen.
    if (deletion.isPending) return;
    setOpen(next);
    if (!next) {
      setTyped('');
      deletion.reset();
    }
  }

  async function onConfirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!confirmed || deletion.isPending) return;
    try {
      await deletion.mutateAsync();
    } catch (error) {
      // 401: the session (and so perhaps the account) is already gone; leave as if deleted.
      if (!(isApiError(error) && error.status === 401)) return;
    }
    notify.success(text.deleted);
    await endSession();
  }

  const failure = deletion.error
    ? isApiError(deletion.error) && deletion.error.status > 0
      ? deletion.error.message
      : text.failed
    : null;

  return (
    <section aria-labelledby="delete-account-title">
      <Card className="border-danger-100">
        <CardContent className="flex flex-col gap-5 md:flex-row md:items-center md:justify-between md:gap-8">
          <div className="flex flex-col gap-1.5">
            <h2 id="delete-account-title" className="text-lg font-semibold text-neutral-950">
              {text.sectionTitle}
            </h2>
            <p className="text-sm leading-relaxed text-neutral-600">{text.sectionDescription}</p>
          </div>
          <ConfirmDialog
            open={open}
            onOpenChange={onOpenChange}
            trigger={
              <Button variant="destructive-outline">
                <Trash2 aria-hidden="true" className="size-4" />
                {text.button}
              </Button>
            }
            // Straight to the field to type in; Enter cannot confirm before DELETE is typed.
            onOpenAutoFocus={(event) => {
              event.preventDefault();
              inputRef.current?.focus();
            }}
            onSubmit={(event) => void onConfirm(event)}
            title={text.title}
            description={text.description}
            busy={deletion.isPending}
            action={
              <Button
                type="submit"
                variant="destructive"
                disabled={!confirmed}
                loading={deletion.isPending}
              >
                {deletion.isPending ? text.deleting : text.confirm}
              </Button>
            }
          >
            <FormField id={confirmInputId} label={text.confirmPrompt}>
              <Input
                ref={inputRef}
                id={confirmInputId}
                name="confirm"
                autoComplete="off"
                autoCapitalize="characters"
                autoCorrect="off"
                spellCheck={false}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                disabled={deletion.isPending}
                aria-describedby={failure ? errorId : undefined}
              />
            </FormField>
            {failure ? <FormAlert id={errorId}>{failure}</FormAlert> : null}
          </ConfirmDialog>
        </CardContent>
      </Card>
    </section>
  );
}
