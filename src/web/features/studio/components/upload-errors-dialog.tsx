import { commonMessages } from '../../../../common/messages/shell.ts';
import { uploadMessages } from '../../../../common/messages/studio.ts';
import { Dialog, DialogCloseFooter, DialogContent } from '../../../components/ui/dialog.tsx';

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
      <DialogContent
        closeLabel={commonMessages.close}
        title={text.errorsTitle}
        description={text.someFailed(errors.length)}
      >
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
        <DialogCloseFooter label={commonMessages.close} />
      </DialogContent>
    </Dialog>
  );
}
