import { commonMessages } from '../../../../common/messages/shell.ts';
import { uploadMessages } from '../../../../common/messages/studio.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';

const text = uploadMessages;

/** "Upload Errors": one line per file that did not upload, with the server's reason. */
export function UploadErrorsDialog({
  errors,
  open,
  onOpenChange,
}: {
  errors: readonly string[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={commonMessages.close}>
        <DialogHeader>
          <DialogTitle>{text.errorsTitle}</DialogTitle>
          <DialogDescription>{text.someFailed(errors.length)}</DialogDescription>
        </DialogHeader>
        <ul className="flex flex-col gap-2 text-sm text-neutral-800">
          {errors.map((error, index) => (
            <li
              key={`${index}-${error}`}
              className="rounded-control border border-danger-100 bg-danger-50 px-3 py-2 break-words text-danger-700"
            >
              {error}
            </li>
          ))}
        </ul>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{commonMessages.close}</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
